/**
 * The WebSocket endpoint {base}/ws on the service's own HTTP server (`ws`, noServer mode on `upgrade`).
 *
 * Auth: an API key in the upgrade request's Authorization / X-API-Key header, or (browsers cannot set headers) a first
 * message {"type":"auth","apiKey":"svc_..."} within REALTIME_WS_AUTH_TIMEOUT_MS. Keys in the URL are refused: URLs
 * end up in logs. Then {"type":"subscribe","channel":"execution","fromSeq"?} and
 * {"type":"subscribe","channel":"market","marketId":"1"}, {"type":"subscribe","channel":"markets"} (every new listing,
 * `market:listed`), {"type":"unsubscribe",...}, {"type":"ping"}.
 * Heartbeat frames {"type":"heartbeat"} (and protocol pings) every REALTIME_HEARTBEAT_MS; a client that answers no
 * protocol ping for two intervals is dropped. Close codes: 4401 auth failed/timed out, 4429 too many streams of the agent, 1013 slow consumer (over 8 MiB unsent), 1001 shutdown.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket, type RawData } from "ws";
import type { ServiceContext } from "../../context";
import type { WindowStore } from "../../platform/rate-limit/window-store";
import type { EventHub } from "./hub";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { presentedKey } from "../../registry/access";
import { ApiError } from "../../platform/errors/api-error";
import { streamIdentity, type StreamIdentity } from "./stream-auth";
import { rateLimited } from "../../platform/rate-limit/headers";
import { refuseUpgrade } from "../../platform/errors/problem";
import { WINDOW_MS } from "../../platform/rate-limit/limits";
import { ExecutionFeed, MarketFeed, type StreamMessage } from "./streams";
import { LISTINGS_CHANNEL, subscribeListings } from "./market-listings";

export const WS_PATH = "/ws";
const MAX_MARKETS = 50;
const MAX_MESSAGE_BYTES = 64 * 1024;
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface RealtimeSocketServer {
  /** Open connections. */
  readonly size: number;
  close(): Promise<void>;
}

type ClientMessage =
  | { type: "auth"; apiKey?: unknown }
  | { type: "subscribe" | "unsubscribe"; channel?: unknown; fromSeq?: unknown; marketId?: unknown; id?: unknown }
  | { type: "ping"; id?: unknown };

/** `windows`: the per-IP window the upgrade pays (it bypasses the Hono chain); `hub`: what the streams read. */
export function attachWebSocket(server: Server, ctx: ServiceContext, parts: { windows: WindowStore; hub: EventHub }): RealtimeSocketServer {
  const { windows, hub } = parts;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const path = `${API_BASE_PATH}${WS_PATH}`;
  const log = ctx.log.child({ part: "ws" });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== path) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    if (url.searchParams.has("apiKey") || url.searchParams.has("api_key")) {
      return refuseUpgrade(
        socket,
        new ApiError("INVALID_PAYLOAD", "do not put the API key in the URL; send it in a header or the first auth message", { field: "apiKey" }),
        ctx.config.publicUrl + path,
      );
    }
    const raw = presentedKey(header(req, "authorization"), header(req, "x-api-key"));
    const accept = (who: StreamIdentity | null) => wss.handleUpgrade(req, socket, head, (ws) => session(ws, who));
    // The upgrade bypasses the Hono chain, so it pays the same per-IP window here.
    const forwarded = ctx.config.TRUST_PROXY ? header(req, "x-forwarded-for")?.split(",")[0]?.trim() : undefined;
    const ip = forwarded || req.socket.remoteAddress || "unknown";
    const now = ctx.clock.now();
    windows
      .charge(`ip:${ip}`, ctx.config.RATE_LIMIT_IP_PER_MINUTE, now, WINDOW_MS)
      .then(async (charge) => {
        if (!charge.allowed) throw rateLimited(charge, now, "per-IP limit");
        accept(raw ? await streamIdentity(ctx, raw) : null);
      })
      .catch((err) =>
        refuseUpgrade(socket, err instanceof ApiError ? err : new ApiError("INTERNAL_ERROR", "authentication failed"), ctx.config.publicUrl + path),
      );
  };
  server.on("upgrade", onUpgrade);

  function session(ws: WebSocket, preauth: StreamIdentity | null): void {
    let who = preauth;
    let alive = true;
    let execution: ExecutionFeed | null = null;
    const markets = new Map<string, MarketFeed | null>();
    let listings: (() => void) | null = null;
    const send = (m: StreamMessage | { type: string; [k: string]: unknown }) => {
      if (ws.readyState !== ws.OPEN) return;
      // A client that does not read is dropped rather than buffered without bound; it resumes from its last seq.
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return ws.close(1013, "slow consumer: reconnect and resume");
      ws.send(JSON.stringify(m));
    };
    // A feed that fails (store unreadable) ends the connection: the client resumes from its last seq elsewhere or later.
    const onError = (err: unknown) => {
      log.error({ err }, "ws feed");
      if (ws.readyState === ws.OPEN) ws.close(1011, "internal error: reconnect and resume");
    };
    const fail = (e: ApiError, request?: unknown) => send({ type: "error", code: e.code, detail: e.detail, ...(request !== undefined ? { request } : {}) });
    let release: (() => void) | null = null;
    /** Takes the agent's stream slot and greets; false (connection closing) when the agent is at its limit. */
    const authenticated = (w: StreamIdentity): boolean => {
      try {
        release = hub.connections.acquire(w.principal.agentId);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        fail(err, "auth");
        ws.close(4429, "too many streams");
        return false;
      }
      send({ type: "authenticated", account: w.account, agentId: w.principal.agentId, heartbeatMs: ctx.config.REALTIME_HEARTBEAT_MS, at: ctx.clock.now() });
      return true;
    };

    const authTimer = who ? null : setTimeout(() => ws.close(4401, "auth timeout"), ctx.config.REALTIME_WS_AUTH_TIMEOUT_MS);
    if (!who) send({ type: "hello", auth: 'send {"type":"auth","apiKey":"..."}', at: ctx.clock.now() });
    else if (!authenticated(who)) who = null;

    const beat = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
      send({ type: "heartbeat", at: ctx.clock.now() });
    }, ctx.config.REALTIME_HEARTBEAT_MS);
    // A pong or any message proves the client is there.
    ws.on("pong", () => (alive = true));

    let queue: Promise<void> = Promise.resolve();
    ws.on("message", (data: RawData, isBinary: boolean) => {
      alive = true;
      queue = queue
        .then(() => handle(data, isBinary))
        .catch((err) => {
          onError(err);
          fail(new ApiError("INTERNAL_ERROR", "message failed"));
        });
    });

    async function handle(data: RawData, isBinary: boolean): Promise<void> {
      let msg: ClientMessage;
      try {
        if (isBinary) throw new Error("binary");
        msg = JSON.parse(data.toString()) as ClientMessage;
        if (!msg || typeof msg !== "object" || typeof msg.type !== "string") throw new Error("shape");
      } catch {
        fail(new ApiError("INVALID_PAYLOAD", "messages are JSON text objects with a string `type`"));
        return;
      }
      if (msg.type === "ping") return send({ type: "pong", id: msg.id, at: ctx.clock.now() });
      if (msg.type === "auth") {
        if (who) return fail(new ApiError("CONFLICT", "already authenticated"), msg.type);
        try {
          who = await streamIdentity(ctx, typeof msg.apiKey === "string" ? msg.apiKey : null);
        } catch (err) {
          const e = err instanceof ApiError ? err : new ApiError("AUTH_REQUIRED", "authentication failed");
          fail(e, "auth");
          ws.close(4401, e.code);
          return;
        }
        if (authTimer) clearTimeout(authTimer);
        if (!authenticated(who)) who = null;
        return;
      }
      if (!who) return fail(new ApiError("AUTH_REQUIRED", 'authenticate first: {"type":"auth","apiKey":"..."}'), msg.type);
      if (msg.type !== "subscribe" && msg.type !== "unsubscribe")
        return fail(new ApiError("INVALID_PAYLOAD", `unknown message type ${JSON.stringify(msg.type)}`), msg.type);
      const id = msg.id;
      if (msg.channel === "execution") {
        execution?.close();
        execution = null;
        if (msg.type === "unsubscribe") return send({ type: "unsubscribed", channel: "execution", id });
        const fromSeq = msg.fromSeq === undefined || msg.fromSeq === null ? null : msg.fromSeq;
        if (fromSeq !== null && !(typeof fromSeq === "number" && Number.isSafeInteger(fromSeq) && fromSeq >= 1)) {
          return fail(new ApiError("INVALID_PAYLOAD", "fromSeq must be an integer >= 1 (the first seq wanted)", { field: "fromSeq" }), id);
        }
        try {
          execution = new ExecutionFeed(hub, who.account, fromSeq, send, onError);
        } catch (err) {
          if (err instanceof ApiError) return fail(err, id);
          throw err;
        }
        // The feed sends from a later microtask, so `subscribed` still precedes the first replayed report.
        send({ type: "subscribed", channel: "execution", account: who.account, fromSeq, id });
        return;
      }
      if (msg.channel === "market") {
        const marketId = typeof msg.marketId === "number" ? String(msg.marketId) : msg.marketId;
        if (typeof marketId !== "string" || !/^[1-9]\d{0,19}$/.test(marketId))
          return fail(new ApiError("INVALID_PAYLOAD", "marketId must be a market id", { field: "marketId" }), id);
        markets.get(marketId)?.close();
        markets.delete(marketId);
        if (msg.type === "unsubscribe") return send({ type: "unsubscribed", channel: `market:${marketId}`, id });
        if (markets.size >= MAX_MARKETS) return fail(new ApiError("INVALID_PAYLOAD", `at most ${MAX_MARKETS} market subscriptions per connection`), id);
        markets.set(marketId, null);
        send({ type: "subscribed", channel: `market:${marketId}`, id });
        try {
          const feed = await MarketFeed.open(hub, marketId, send, onError);
          if (markets.has(marketId) && ws.readyState === ws.OPEN) markets.set(marketId, feed);
          else feed.close();
        } catch (err) {
          markets.delete(marketId);
          if (err instanceof ApiError) return fail(err, id);
          throw err;
        }
        return;
      }
      if (msg.channel === LISTINGS_CHANNEL) {
        listings?.();
        listings = null;
        if (msg.type === "unsubscribe") return send({ type: "unsubscribed", channel: LISTINGS_CHANNEL, id });
        send({ type: "subscribed", channel: LISTINGS_CHANNEL, id });
        listings = subscribeListings(hub, send);
        return;
      }
      return fail(new ApiError("INVALID_PAYLOAD", "channel must be execution, market or markets", { field: "channel" }), id);
    }

    ws.on("close", () => {
      release?.();
      clearInterval(beat);
      if (authTimer) clearTimeout(authTimer);
      execution?.close();
      listings?.();
      for (const f of markets.values()) f?.close();
      markets.clear();
    });
  }

  return {
    get size() {
      return wss.clients.size;
    },
    async close() {
      server.off("upgrade", onUpgrade);
      for (const ws of wss.clients) ws.close(1001, "shutdown");
      await new Promise<void>((r) => wss.close(() => r()));
      for (const ws of wss.clients) ws.terminate();
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
