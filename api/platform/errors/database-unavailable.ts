/**
 * Whether an error means "the database cannot be reached right now" (a restart, a fail-over, a cut network) rather than
 * a bug: postgres.js connection errors (refused, closed, ended, timed out) and the server's own SQLSTATE classes for it
 * (08 connection exception, 57P01..57P03 shutdown / crash / starting up, 53300 too many connections). The app's error
 * handler answers these with 503 SERVICE_UNAVAILABLE and `Retry-After`, so a client backs off and retries instead of
 * seeing 500 (docs/errors.md); the cause chain is walked because wrappers keep the driver's error as `cause`.
 */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === "object" && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    if (NETWORK_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}

/** Seconds a client waits before retrying a call the database could not serve. */
export const DATABASE_RETRY_AFTER_S = 1;
