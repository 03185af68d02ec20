/** The spec's rate-limit headers and the 429 problem built from one window charge. */
import { ApiError } from "../errors/api-error";
import type { ChargeResult } from "./window-store";

export function rateLimitHeaders(r: ChargeResult): Record<string, string> {
  return {
    "RateLimit-Limit": String(r.limit),
    "RateLimit-Remaining": String(r.remaining),
    // Absolute epoch second at which the oldest charged request ages out (spec "Limits").
    "RateLimit-Reset": String(Math.ceil(r.resetAt / 1000)),
  };
}

export function rateLimited(r: ChargeResult, now: number, what: string): ApiError {
  const retryAfter = Math.max(1, Math.ceil(r.resetAt / 1000) - Math.floor(now / 1000));
  return new ApiError(
    "RATE_LIMITED",
    `${what}: at most ${r.limit} requests per 60 s; retry after ${retryAfter} s`,
    { retryAfter },
    {
      ...rateLimitHeaders(r),
      "Retry-After": String(retryAfter),
    },
  );
}
