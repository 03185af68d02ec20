/**
 * What a client of the realtime lanes runs: an SSE reader of `execution:report` (the `eventsource` package with the
 * bearer key in a header) and a webhook receiver on 127.0.0.1 that checks every delivery with the `standardwebhooks`
 * library before it accepts it.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { EventSource } from "eventsource";
import { Webhook } from "standardwebhooks";
import type { Json } from "./client";

/** Polls `probe` until it returns a value (bounded); the error names `what` and shows `state()`. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  state: () => unknown = () => "",
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; state: ${JSON.stringify(state()).slice(0, 1500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface SseReader {
  /** The `ready` control event's data, once received. */
  ready: Json | null;
  /** `execution:report` envelopes in arrival order, with the SSE `id` they came with. */
  reports: { id: string; envelope: Json }[];
  errors: string[];
  close(): void;
}

/** Opens GET {base}/events/stream with the key (live only: no fromSeq). */
export function openSse(base: string, key: string): SseReader {
  const reader: SseReader = { ready: null, reports: [], errors: [], close: () => es.close() };
  const es = new EventSource(`${base}/events/stream`, {
    fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, Authorization: `Bearer ${key}` } }),
  });
  es.addEventListener("ready", (e) => (reader.ready = JSON.parse(e.data) as Json));
  es.addEventListener("execution:report", (e) => reader.reports.push({ id: e.lastEventId, envelope: JSON.parse(e.data) as Json }));
  es.addEventListener("error", (e) => reader.errors.push(String((e as { message?: string }).message ?? "error")));
  return reader;
}

export interface Delivery {
  path: string;
  headers: Record<string, string>;
  raw: string;
  /** The verified message, or null when Webhook.verify threw (then `error` says why). */
  message: Json | null;
  error: string | null;
}

export interface WebhookReceiver {
  url(path: string): string;
  /** Registers the whsec_ secret of the subscription that posts to `path`. */
  secret(path: string, secret: string): void;
  deliveries: Delivery[];
  close(): Promise<void>;
}

function rawBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** A receiver that verifies each delivery with its path's secret and answers 204 (401 when verification fails). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const secrets = new Map<string, string>();
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    void rawBody(req).then((raw) => {
      const path = req.url ?? "/";
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v ?? "")]));
      const secret = secrets.get(path);
      let message: Json | null = null;
      let error: string | null = null;
      try {
        if (!secret) throw new Error(`no secret registered for ${path}`);
        message = new Webhook(secret).verify(raw, headers) as Json;
      } catch (err) {
        error = (err as Error).message;
      }
      deliveries.push({ path, headers, raw, message, error });
      res.writeHead(error ? 401 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    secret: (path, secret) => void secrets.set(path, secret),
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
