/**
 * A follower instance (docs/scale-out.md): while another instance owns the exchange, this one opens no exchange and
 * forwards every request on its port to the leader's advertised URL, with the caller's headers (key,
 * Idempotency-Key, versions) and body; the leader's answer, streams included, comes back as is. Idempotency records
 * live in the shared database, so a retry of the same call through either instance gets the same answer.
 *
 * No leader known (the lock is changing hands) or the leader unreachable: 503 SERVICE_UNAVAILABLE with
 * `Retry-After: 1`; a client retries with the same Idempotency-Key and clientOrderId and nothing is doubled.
 * WebSocket upgrades are not forwarded: realtime clients use SSE through a follower, or reach the leader.
 */
import type { Server } from "node:http";
import { serve, type ServerType } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { Hono } from "hono";
import { proxy } from "hono/proxy";
import { ApiError } from "../../platform/errors/api-error";
import { problemResponse } from "../../platform/errors/problem";
import type { LeaderLock } from "../../platform/leader/leader-lock";

/** How long a looked-up leader URL is reused before pg_locks is asked again (a failed forward forgets it at once). */
const LEADER_URL_TTL_MS = 1_000;

export interface Follower {
  port: number;
  /** Requests forwarded so far (for the ready line and tests). */
  forwarded(): number;
  close(): Promise<void>;
}

export async function startFollower(opts: { host: string; port: number; lock: LeaderLock; nowMs: () => number }): Promise<Follower> {
  let cached: { url: string | null; at: number } | null = null;
  let forwarded = 0;
  const leaderUrl = async (): Promise<string | null> => {
    const now = opts.nowMs();
    if (cached && cached.url !== null && now - cached.at < LEADER_URL_TTL_MS) return cached.url;
    cached = { url: await opts.lock.leaderUrl().catch(() => null), at: now };
    return cached.url;
  };
  const unavailable = (url: string, why: string) =>
    problemResponse(new ApiError("SERVICE_UNAVAILABLE", `${why}; retry after Retry-After seconds`, {}, { "Retry-After": "1" }), url);

  const app = new Hono();
  app.all("*", async (c) => {
    const leader = await leaderUrl();
    if (!leader) return unavailable(c.req.url, "no instance owns the exchange right now (it is changing hands)");
    const { pathname, search } = new URL(c.req.url);
    const headers: Record<string, string | undefined> = {
      ...c.req.header(),
      host: undefined, // the leader's own host, so its Host allow-list (MCP) holds
      "x-forwarded-host": c.req.header("host"),
      "x-forwarded-for": [c.req.header("x-forwarded-for"), getConnInfo(c).remote.address].filter(Boolean).join(", ") || undefined,
    };
    try {
      const res = await proxy(`${leader}${pathname}${search}`, { raw: c.req.raw, headers });
      forwarded++;
      return res;
    } catch {
      cached = null; // the leader died or moved: ask pg_locks again on the next call
      return unavailable(c.req.url, "the instance that owns the exchange cannot be reached");
    }
  });

  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: opts.host, port: opts.port }, () => resolve(s));
    s.once("error", reject);
  });
  const port = ((server as Server).address() as { port: number }).port;
  return {
    port,
    forwarded: () => forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        (server as Server).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
