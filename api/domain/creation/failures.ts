/**
 * A failed check of the negotiate flow: a code of docs/errors.md, the request field it is about and a sentence.
 * Preflight answers them all in a 200; every other step refuses with the first as the problem's code and all of them
 * in the problem's `errors`.
 */
import { ApiError } from "../../platform/errors/api-error";
import type { ErrorCode } from "../../platform/errors/codes";

export interface CheckFailure {
  code: ErrorCode;
  field: string;
  message: string;
  /** A finer reason where one code covers several rules (CONTENT_BLOCKED, CREATION_NOT_ALLOWED). */
  reason?: string;
}

/** The problem a step answers when checks failed: the first failure's code and status, every failure listed. */
export function refusal(failures: CheckFailure[]): ApiError {
  const first = failures[0]!;
  const detail = failures.map((f) => `${f.field}: ${f.message}`).join("; ");
  return new ApiError(first.code, detail, { field: first.field, ...(first.reason ? { reason: first.reason } : {}), errors: failures });
}
