/**
 * Who is calling: the client IP (socket address, or the first X-Forwarded-For hop when TRUST_PROXY is set) and
 * whether the request is an internal call (the MCP adapter, or the operator's start-up demo creator), which reaches
 * the REST routes through `app.fetch` with an `internal` binding that no network client can set.
 */
import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Surface } from "../../registry/types";

export interface InternalCall {
  surface: Surface;
  ip: string;
  requestId: string;
  /**
   * The operator's own caller inside the process (the demo creator at start-up): its calls are not charged to the
   * public per-key windows, so a small configured ceiling cannot stop the service from starting.
   */
  operator?: boolean;
}

export function internalCallOf(c: Context): InternalCall | undefined {
  const env = c.env as { internal?: InternalCall } | undefined;
  return env?.internal;
}

export function clientIp(c: Context, trustProxy: boolean): string {
  const internal = internalCallOf(c);
  if (internal) return internal.ip;
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}
