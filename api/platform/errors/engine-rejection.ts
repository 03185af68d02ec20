/**
 * The exchange answers a refused command as a value (`Rejected` from the engine, `Unavailable` from the exchange
 * around it; relayer/engine/types.ts, relayer/exchange/exchange.ts). This is the one table that turns each of its codes
 * into the problem the API answers, and the one helper that applies it (docs/errors.md "Engine refusals").
 */
import { toJsonValue } from "../../../decoder";
import type { Accepted, Command } from "../../../relayer/engine/types";
import type { SubmitRejectCode, Submitted } from "../../../relayer/exchange/exchange";
import { ApiError } from "./api-error";
import type { ERROR_CODES, ErrorCode } from "./codes";

/** How one refusal code is answered: the problem code, its status, and `reason` when the problem is a CONFLICT. */
export interface RejectionProblem {
  code: ErrorCode;
  status: number;
  /** The CONFLICT's `reason` member, first of the extensions. */
  reason?: string;
  headers?: Record<string, string>;
}

/** A table row; the compiler checks `status` against the problem code's status in ERROR_CODES. */
function problem<C extends ErrorCode>(
  code: C,
  status: (typeof ERROR_CODES)[C]["status"],
  more: { reason?: string; headers?: Record<string, string> } = {},
): RejectionProblem {
  return { code, status, ...more };
}

/** Every refusal code and its problem. A code added to the engine or the exchange does not compile until it is here. */
export const REJECTION_PROBLEMS: Readonly<Record<SubmitRejectCode, RejectionProblem>> = {
  INVALID_PAYLOAD: problem("INVALID_PAYLOAD", 400),
  MARKET_NOT_FOUND: problem("MARKET_NOT_FOUND", 404),
  MARKET_EXISTS: problem("CONFLICT", 409),
  MARKET_CLOSED: problem("MARKET_CLOSED", 410),
  INSUFFICIENT_BALANCE: problem("INSUFFICIENT_BALANCE", 409),
  FILL_ALLOWANCE_EXHAUSTED: problem("FILL_ALLOWANCE_EXHAUSTED", 402),
  ORDER_NOT_FOUND: problem("ORDER_NOT_FOUND", 404),
  ORDER_NOT_OPEN: problem("CONFLICT", 409, { reason: "ORDER_NOT_OPEN" }),
  CLIENT_ORDER_ID_REUSED: problem("CONFLICT", 409),
  POST_ONLY_WOULD_CROSS: problem("CONFLICT", 409, { reason: "POST_ONLY_WOULD_CROSS" }),
  SLIPPAGE: problem("CONFLICT", 409, { reason: "SLIPPAGE" }),
  BUDGET_TOO_SMALL: problem("CONFLICT", 409, { reason: "BUDGET_TOO_SMALL" }),
  // The lifecycle's refusals (docs/resolution.md): the spec's two window codes, the rest CONFLICT or FORBIDDEN with a reason.
  CREATOR_WINDOW_ELAPSED: problem("CREATOR_WINDOW_ELAPSED", 409),
  CHALLENGE_WINDOW_CLOSED: problem("CHALLENGE_WINDOW_CLOSED", 409),
  CREATOR_WINDOW_NOT_OPEN: problem("CONFLICT", 409, { reason: "CREATOR_WINDOW_NOT_OPEN" }),
  NOT_CREATOR: problem("FORBIDDEN", 403, { reason: "NOT_CREATOR" }),
  CREATOR_NOT_ELIGIBLE: problem("FORBIDDEN", 403, { reason: "CREATOR_NOT_ELIGIBLE" }),
  KEEPER_WINDOW_CLOSED: problem("CONFLICT", 409, { reason: "KEEPER_WINDOW_CLOSED" }),
  VOTE_NOT_OPEN: problem("CONFLICT", 409, { reason: "VOTE_NOT_OPEN" }),
  ALREADY_VOTED: problem("CONFLICT", 409, { reason: "ALREADY_VOTED" }),
  COUNCIL_NOT_OPEN: problem("CONFLICT", 409, { reason: "COUNCIL_NOT_OPEN" }),
  NOT_COUNCIL_MEMBER: problem("FORBIDDEN", 403, { reason: "NOT_COUNCIL_MEMBER" }),
  MARKET_NOT_FINAL: problem("CONFLICT", 409, { reason: "MARKET_NOT_FINAL" }),
  WRONG_MARKET_STATE: problem("CONFLICT", 409, { reason: "WRONG_MARKET_STATE" }),
  SERVICE_UNAVAILABLE: problem("SERVICE_UNAVAILABLE", 503, { headers: { "Retry-After": "1" } }),
};

type Refused = Exclude<Submitted, { ok: true }>;

/** The problem of a refused command: detail = the engine's message, extensions = `reason` (if any) then the details. */
export function problemOfRejection(r: Refused): ApiError {
  const p = REJECTION_PROBLEMS[r.code];
  const details = toJsonValue(r.details) as Record<string, unknown>;
  return new ApiError(p.code, r.message, p.reason === undefined ? details : { reason: p.reason, ...details }, p.headers ?? {});
}

/** The accepted answer of a submit; a refusal is thrown as its problem (the API's error handler answers it). */
export function accepted<C extends Command>(r: Submitted<C>): Accepted<C> {
  if (!r.ok) throw problemOfRejection(r);
  return r;
}
