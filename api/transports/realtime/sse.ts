/**
 * GET {base}/events/stream: Server-Sent Events. Needs an API key in a header (EventSource polyfills and every non-browser
 * client can send one). Streams the key's execution reports (`id:` = report seq) and, with `?markets=1,2`, market
 * channels, with `?listings=true` the `markets` channel (every new listing, `market:listed`). Resume: `Last-Event-ID: <last seq received>` (what EventSource sends on reconnect) or `?fromSeq=<first seq
 * wanted>`; Last-Event-ID wins when both are present. Heartbeat events every REALTIME_HEARTBEAT_MS.
 */
import type { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { ServiceContext } from "../../context";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { presentedKey } from "../../registry/access";
import { ApiError } from "../../platform/errors/api-error";
import { streamIdentity } from "./stream-auth";
import { ExecutionFeed, MarketFeed, type StreamMessage } from "./streams";
import { subscribeListings } from "./market-listings";
import type { EventHub } from "./hub";

export const SSE_PATH = "/events/stream";
const MAX_MARKETS = 20;
const MAX_PENDING_WRITES = 10_000;

function seqParam(raw: string | undefined, name: string): number | null {
  if (raw === undefined || raw === "") return null;
  if (!/^\d{1,15}$/.test(raw)) throw new ApiError("INVALID_PAYLOAD", `${name} must be a non-negative integer`, { field: name });
  return Number(raw);
}

function flagParam(raw: string | undefined, name: string): boolean {
  if (raw === undefined || raw === "" || raw === "false" || raw === "0") return false;
  if (raw === "true" || raw === "1") return true;
  throw new ApiError("INVALID_PAYLOAD", `${name} must be true or false`, { field: name });
}

export function parseMarkets(raw: string | undefined): string[] {
  if (!raw) return [];
  const ids = [
    ...new Set(
      raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length > MAX_MARKETS) throw new ApiError("INVALID_PAYLOAD", `at most ${MAX_MARKETS} markets per stream`, { field: "markets" });
  for (const id of ids)
    if (!/^[1-9]\d{0,19}$/.test(id))
      throw new ApiError("INVALID_PAYLOAD", `markets must be comma-separated market ids; got ${JSON.stringify(id)}`, { field: "markets" });
  return ids;
}

export function mountSse(app: Hono, ctx: ServiceContext, hub: EventHub): void {
  app.get(`${API_BASE_PATH}${SSE_PATH}`, async (c) => {
    const who = await streamIdentity(ctx, presentedKey(c.req.header("authorization"), c.req.header("x-api-key")));
    const lastEventId = seqParam(c.req.header("last-event-id"), "Last-Event-ID");
    const fromSeqQuery = seqParam(c.req.query("fromSeq"), "fromSeq");
    const fromSeq = lastEventId !== null ? lastEventId + 1 : fromSeqQuery !== null ? Math.max(1, fromSeqQuery) : null;
    const execution = c.req.query("execution") !== "false";
    const markets = parseMarkets(c.req.query("markets"));
    const listings = flagParam(c.req.query("listings"), "listings");
    const release = hub.connections.acquire(who.principal.agentId);
    const heartbeatMs = ctx.config.REALTIME_HEARTBEAT_MS;
    const onError = (err: unknown) => ctx.log.error({ err }, "sse stream");
    c.header("Cache-Control", "no-store");
    c.header("X-Accel-Buffering", "no");
    return streamSSE(c, async (stream) => {
      let writes: Promise<void> = Promise.resolve();
      let pending = 0;
      const write = (m: StreamMessage | { type: string; [k: string]: unknown }, id?: number) => {
        // A client that does not read is dropped rather than buffered without bound; it resumes with Last-Event-ID.
        if (stream.aborted || stream.closed) return;
        if (pending >= MAX_PENDING_WRITES) {
          stream.abort();
          return;
        }
        pending++;
        writes = writes
          .then(() => stream.writeSSE({ event: m.type, data: JSON.stringify(m), ...(id !== undefined ? { id: String(id) } : {}) }))
          .catch(onError)
          .finally(() => pending--);
      };
      const closers: (() => void)[] = [release];
      // A feed that fails (store unreadable) ends the stream: the client resumes with Last-Event-ID.
      const feedError = (err: unknown) => {
        onError(err);
        stream.abort();
      };
      const done = new Promise<void>((resolve) => stream.onAbort(resolve));
      await stream.writeSSE({
        event: "ready",
        retry: 3000,
        data: JSON.stringify({ type: "ready", account: who.account, fromSeq, markets, listings, heartbeatMs, at: ctx.clock.now() }),
      });
      try {
        // Execution messages carry `id:` so the browser's Last-Event-ID is always the last report seq.
        if (execution)
          closers.push(
            (
              (f) => () =>
                f.close()
            )(new ExecutionFeed(hub, who.account, fromSeq, (m) => write(m, m.seq), feedError)),
          );
        if (listings) closers.push(subscribeListings(hub, (m) => write(m)));
        for (const marketId of markets) {
          const f = await MarketFeed.open(hub, marketId, (m) => write(m), feedError);
          closers.push(() => f.close());
        }
      } catch (err) {
        const e = err instanceof ApiError ? err : new ApiError("INTERNAL_ERROR", "stream failed");
        write({ type: "error", code: e.code, detail: e.detail });
        await writes;
        for (const close of closers) close();
        return;
      }
      const beat = setInterval(() => write({ type: "heartbeat", at: ctx.clock.now() }), heartbeatMs);
      await done;
      clearInterval(beat);
      for (const close of closers) close();
    });
  });
}
