/**
 * How a rule refuses a command inside the engine. Refusing unwinds the stack with a `Refusal` (the fast path: no
 * check between the rule and `Engine.apply` has to pass a result up), and `Engine.apply` catches it, rolls the
 * command back and answers it as a `Rejected` value. A Refusal never leaves the engine; anything else thrown is a bug.
 */
import type { RejectCode, RejectDetails } from "./types";

/** Thrown by the rules, caught only by `Engine.apply`. Not an Error: a refusal needs no stack trace. */
export class Refusal<K extends RejectCode = RejectCode> {
  constructor(
    readonly code: K,
    readonly message: string,
    readonly details: RejectDetails[K],
  ) {}
}

/** Refuses the command being applied with `code`. */
export function reject<K extends RejectCode>(code: K, message: string, details: RejectDetails[K]): never {
  throw new Refusal(code, message, details);
}

/** Refuses the command as INVALID_PAYLOAD. */
export function invalid(message: string, details: RejectDetails["INVALID_PAYLOAD"] = {}): never {
  throw new Refusal("INVALID_PAYLOAD", message, details);
}
