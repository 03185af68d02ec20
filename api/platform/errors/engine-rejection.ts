/**
 * The exchange engine refuses commands with `EngineRejection {code, status, message, extensions}` (relayer/engine).
 * At the API edge each becomes a problem with a code of the contract: engine codes the API knows keep their code;
 * the engine's finer reasons (POST_ONLY_WOULD_CROSS, ORDER_NOT_OPEN, ...) travel as `reason` of a CONFLICT.
 */
import { EngineRejection } from "../../../relayer/engine/types";
import { ExchangeUnavailableError } from "../../../relayer/exchange/exchange";
import { ApiError } from "./api-error";
import { ERROR_CODES, type ErrorCode } from "./codes";

export function apiErrorOfEngine(err: unknown): ApiError | null {
  if (err instanceof ExchangeUnavailableError) return new ApiError("SERVICE_UNAVAILABLE", err.message, {}, { "Retry-After": "1" });
  if (!(err instanceof EngineRejection)) return null;
  const extensions = jsonSafe(err.extensions ?? {}) as Record<string, unknown>;
  if (err.code in ERROR_CODES) return new ApiError(err.code as ErrorCode, err.message, extensions);
  return new ApiError("CONFLICT", err.message, { reason: err.code, ...extensions });
}

/** Bigints (at any depth: an order view carries sizes) become decimal strings, as everywhere at the JSON edge. */
function jsonSafe(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]));
  return v;
}
