/**
 * Errors of the decoder package. Every error extends {@link DecoderBaseError} (a short message, a stable
 * `code`, optional details and a `cause` chain), in the manner of viem's BaseError. The decoder is a pure
 * core and cannot import the API's error module, so it carries its own base class.
 */
export class DecoderBaseError extends Error {
  override name = "DecoderBaseError";
  readonly code: string;
  readonly details?: string;
  constructor(code: string, message: string, options: { details?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }
}

/** Codes of {@link JournalDecodeError}, one per way a PMJ5 payload can be malformed. */
export type JournalDecodeErrorCode =
  | "TRUNCATED"
  | "BAD_MAGIC"
  | "UNKNOWN_VERSION"
  | "UNKNOWN_OP"
  | "INDEX_OUT_OF_RANGE"
  | "TRAILING_BYTES"
  | "VARINT_OVERSIZE"
  | "VARINT_NONCANONICAL"
  | "INVALID_VALUE";

/** A PMJ5 payload could not be decoded; `offset` is the byte offset where the problem starts. */
export class JournalDecodeError extends DecoderBaseError {
  override name = "JournalDecodeError";
  declare readonly code: JournalDecodeErrorCode;
  readonly offset: number;
  constructor(code: JournalDecodeErrorCode, offset: number, message: string) {
    super(code, `${message} (at byte ${offset})`);
    this.offset = offset;
  }
}

/** An operation given to the encoder breaks a rule of the format (e.g. amount 0, price out of range). */
export class JournalEncodeError extends DecoderBaseError {
  override name = "JournalEncodeError";
  constructor(message: string) {
    super("INVALID_OP", message);
  }
}

/** A movement would break the ledger rules (non-positive amount, balance outside int256). */
export class LedgerMovementError extends DecoderBaseError {
  override name = "LedgerMovementError";
  constructor(message: string) {
    super("INVALID_MOVEMENT", message);
  }
}
