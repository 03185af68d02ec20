/**
 * Stream clients for tests: an SSE reader over fetch (so a test sets Last-Event-ID itself) and a WebSocket client,
 * each collecting parsed messages with `waitFor`.
 */
import WebSocket from "ws";

export class Collector<T> {
  readonly items: T[] = [];
  private waiters: { pred: (t: T) => boolean; n: number; resolve: (v: T[]) => void }[] = [];

  push(item: T): void {
    this.items.push(item);
    this.waiters = this.waiters.filter((w) => {
      const got = this.items.filter(w.pred);
      if (got.length < w.n) return true;
      w.resolve(got);
      return false;
    });
  }

  /** Resolves with every matching item once at least `n` have arrived; rejects after `timeoutMs`. */
  waitFor(pred: (t: T) => boolean, n = 1, timeoutMs = 5000): Promise<T[]> {
    const got = this.items.filter(pred);
    if (got.length >= n) return Promise.resolve(got);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timed out waiting for ${n} matching messages; have ${JSON.stringify(this.items.slice(-5))}`)), timeoutMs);
      this.waiters.push({
        pred,
        n,
        resolve: (v) => {
          clearTimeout(t);
          resolve(v);
        },
      });
    });
  }
}

export interface SseEvent {
  event: string;
  id: string | null;
  data: Record<string, unknown>;
}

export async function openSse(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; events: Collector<SseEvent>; body: string | null; close(): void }> {
  const ac = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: ac.signal });
  const events = new Collector<SseEvent>();
  if (res.status !== 200 || !res.body) return { status: res.status, events, body: await res.text(), close: () => ac.abort() };
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  (async () => {
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += value;
      let idx: number;
      while ((idx = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, idx);
        buf = buf.slice(idx + 2);
        let event = "message";
        let id: string | null = null;
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("id:")) id = line.slice(3).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
        }
        if (data.length > 0) events.push({ event, id, data: JSON.parse(data.join("\n")) });
      }
    }
  })().catch(() => {});
  return { status: 200, events, body: null, close: () => ac.abort() };
}

export type WsMessage = Record<string, unknown> & { type: string };

export async function openWs(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ws: WebSocket; messages: Collector<WsMessage>; closed: Promise<{ code: number; reason: string }>; send(m: unknown): void; close(): void }> {
  const ws = new WebSocket(url, { headers });
  const messages = new Collector<WsMessage>();
  ws.on("message", (d) => messages.push(JSON.parse(d.toString()) as WsMessage));
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on("close", (code, reason) => r({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { statusCode: res.statusCode })));
  });
  return { ws, messages, closed, send: (m) => ws.send(JSON.stringify(m)), close: () => ws.close() };
}
