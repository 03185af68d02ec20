/**
 * Per-operation rate limits (spec "Limits"): a charged call of an authenticated key costs one unit of its
 * `{key, rate class}` window with the ceilings of its allocation tier; registration and key recovery also charge
 * their own per-IP windows. Charged responses carry RateLimit-Limit/-Remaining/-Reset; uncharged ones (GET /me)
 * carry none. Public reads (permission none, class read: GET /time, the discovery documents and reads) are never
 * charged to a caller's key, even when one is presented (spec rule 4): only the per-IP window applies to them, and
 * they show it. The operator's in-process caller (InternalCall.operator: the demo creator) is not charged.
 */
import type { MiddlewareHandler } from "hono";
import type { Clock } from "../../../../relayer/clock";
import type { Config } from "../../../config";
import { rateLimited, rateLimitHeaders } from "../../../platform/rate-limit/headers";
import { ipCeilings, keyCeilings, WINDOW_MS } from "../../../platform/rate-limit/limits";
import type { ChargeResult, WindowStore } from "../../../platform/rate-limit/window-store";
import type { AnyOperation } from "../../../registry/types";
import { internalCallOf } from "../caller";
import { addResponseHeaders } from "../response-headers";

export function rateLimit(op: AnyOperation, deps: { windows: WindowStore; clock: Clock; config: Config }): MiddlewareHandler {
  if (!["read", "write", "data"].includes(op.rateClass)) throw new Error(`rateLimit: operation ${op.id} has no rate class`);
  const ipLimits = ipCeilings(deps.config);
  const publicRead = op.permission === "none" && op.rateClass === "read";
  return async function rateLimitMiddleware(c, next) {
    const now = deps.clock.now();
    let shown: ChargeResult | null = null;
    if (op.ipLimit) {
      const r = await deps.windows.charge(`ip-${op.ipLimit}:${c.get("ip")}`, ipLimits[op.ipLimit], now, WINDOW_MS);
      if (!r.allowed) throw rateLimited(r, now, op.ipLimit === "register" ? "registration limit per IP" : "key recovery limit per IP");
      shown = r;
    }
    const principal = c.get("principal");
    if (op.charged && principal && !publicRead && !internalCallOf(c)?.operator) {
      const ceilings = keyCeilings(deps.config, principal, now);
      const r = await deps.windows.charge(`key:${principal.keyId}:${op.rateClass}`, ceilings[op.rateClass as "read"], now, WINDOW_MS);
      const throttled = ceilings.throttle ? `, lowered to ${ceilings.throttle.percent}% by the operator (${ceilings.throttle.reason})` : "";
      if (!r.allowed) throw rateLimited(r, now, `${op.rateClass} limit of this key${throttled}`);
      shown = r;
    } else if (op.charged && !shown) {
      shown = c.get("ipCharge");
    }
    if (shown) addResponseHeaders(c, rateLimitHeaders(shown));
    return next();
  };
}
