/**
 * Per-IP limit on every request (public and uncharged reads included): one sliding 60 s window per client IP.
 * Internal calls of the MCP adapter were already counted at /mcp and pass. Sets `c.var.ip` and `c.var.ipCharge`.
 */
import type { MiddlewareHandler } from "hono";
import type { Clock } from "../../../../relayer/clock";
import { clientIp, internalCallOf } from "../caller";
import { rateLimited } from "../../../platform/rate-limit/headers";
import { WINDOW_MS } from "../../../platform/rate-limit/limits";
import type { ChargeResult, WindowStore } from "../../../platform/rate-limit/window-store";

export interface IpLimitVariables {
  ip: string;
  /** The per-IP charge of this request; null for internal calls. */
  ipCharge: ChargeResult | null;
}

declare module "hono" {
  interface ContextVariableMap extends IpLimitVariables {}
}

export function ipLimit(opts: { windows: WindowStore; clock: Clock; perMinute: number; trustProxy: boolean }): MiddlewareHandler {
  if (!(opts.perMinute >= 1)) throw new Error("ipLimit: perMinute must be at least 1");
  return async function ipLimitMiddleware(c, next) {
    const ip = clientIp(c, opts.trustProxy);
    c.set("ip", ip);
    if (internalCallOf(c)) {
      c.set("ipCharge", null);
      return next();
    }
    const now = opts.clock.now();
    const charge = await opts.windows.charge(`ip:${ip}`, opts.perMinute, now, WINDOW_MS);
    if (!charge.allowed) throw rateLimited(charge, now, "per-IP limit");
    c.set("ipCharge", charge);
    await next();
  };
}
