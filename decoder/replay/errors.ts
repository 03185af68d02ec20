import { DecoderBaseError } from "../errors";

/** Codes of {@link ReplayError}. */
export type ReplayErrorCode = "RPC_UNREACHABLE" | "TX_NOT_FOUND" | "NOT_A_BATCH" | "NO_LEDGER_ADDRESS" | "BAD_INPUT";

/** The replay could not run (as opposed to a root mismatch, which is a result). */
export class ReplayError extends DecoderBaseError {
  override name = "ReplayError";
  declare readonly code: ReplayErrorCode;
  constructor(code: ReplayErrorCode, message: string, cause?: unknown) {
    super(code, message, { cause });
  }
}
