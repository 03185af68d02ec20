/**
 * A follower instance (docs/scale-out.md): while another instance owns the exchange, this one opens no exchange and
 * forwards every request on its port to the leader's advertised URL, with the caller's headers (key,
 * Idempotency-Key, versions) and body; the leader's answer, streams included, comes back as is. Idempotency records
 * live in the shared database, so a retry of the same call through either instance gets the same answer.
 *
 * No leader known (the lock is changing hands) or the leader unreachable: 503 SERVICE_UNAVAILABLE with
 * `Retry-After: 1`; a client retries with the same Idempotency-Key and clientOrderId and nothing is doubled.
 *
 * WebSocket upgrades are forwarded too: the upgrade request goes to the leader as it came (its Host the leader's,
 * X-Forwarded-* added), and from the leader's answer on the two connections are joined byte for byte, so the client
 * speaks to the leader's WebSocket through this port. A tunnel ends with either side, and all of them at `close()`
 * (a follower taking over closes its port; the old leader's sockets are gone by then anyway). A client that loses its
 * tunnel reconnects and resumes from its seq, as it would after any disconnect (docs/realtime.md).
 */
import type { IncomingMessage, Server } from "node:http";
import { connect as tcpConnect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { connect as tlsConnect } from "node:tls";
import { serve, type ServerType } from "@hono/node-server";
import { getConnInfo } from "@hono/node-server/conninfo";
import { Hono } from "hono";
import { proxy } from "hono/proxy";
import { ApiError } from "../../platform/errors/api-error";
import { problemResponse, refuseUpgrade } from "../../platform/errors/problem";
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
  const unavailableError = (why: string) => new ApiError("SERVICE_UNAVAILABLE", `${why}; retry after Retry-After seconds`, {}, { "Retry-After": "1" });
  const unavailable = (url: string, why: string) => problemResponse(unavailableError(why), url);

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

  const tunnels = new Set<Duplex>();
  (server as Server).on("upgrade", (req: IncomingMessage, client: Duplex, head: Buffer) => {
    tunnels.add(client);
    client.once("close", () => tunnels.delete(client));
    client.on("error", () => client.destroy());
    void tunnel(req, client, head);
  });
  async function tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const url = `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`;
    const leader = await leaderUrl();
    if (!leader) return refuseUpgrade(client, unavailableError("no instance owns the exchange right now (it is changing hands)"), url);
    if (client.destroyed) return;
    const target = new URL(leader);
    const tls = target.protocol === "https:";
    const port = Number(target.port) || (tls ? 443 : 80);
    const upstream: Socket = tls ? tlsConnect({ host: target.hostname, port, servername: target.hostname }) : tcpConnect({ host: target.hostname, port });
    let joined = false;
    upstream.once(tls ? "secureConnect" : "connect", () => {
      upstream.write(upgradeRequest(req, target.host, req.socket.remoteAddress));
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
      joined = true;
      forwarded++;
    });
    upstream.on("error", () => {
      if (joined) return client.destroy();
      cached = null; // the leader died or moved: ask pg_locks again on the next call
      refuseUpgrade(client, unavailableError("the instance that owns the exchange cannot be reached"), url);
    });
    // Before the join the client is answered by the refusal above, which a destroy here would cut short.
    upstream.once("close", () => joined && client.destroy());
    client.once("close", () => upstream.destroy());
  }

  const port = ((server as Server).address() as { port: number }).port;
  return {
    port,
    forwarded: () => forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of tunnels) t.destroy(); // upgraded sockets are no longer the HTTP server's to close
        (server as Server).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** The upgrade request as the client sent it, for the leader: its Host the leader's, and who asked through whom. */
function upgradeRequest(req: IncomingMessage, leaderHost: string, remote: string | undefined): string {
  const lines = [`${req.method} ${req.url} HTTP/1.1`];
  const dropped = new Set(["host", "x-forwarded-host", "x-forwarded-for"]);
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (!dropped.has(req.rawHeaders[i]!.toLowerCase())) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  lines.push(`Host: ${leaderHost}`);
  if (req.headers.host) lines.push(`X-Forwarded-Host: ${req.headers.host}`);
  const forwardedFor = [req.headers["x-forwarded-for"], remote].filter(Boolean).join(", ");
  if (forwardedFor) lines.push(`X-Forwarded-For: ${forwardedFor}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}
