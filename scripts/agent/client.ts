/**
 * The agent CLI's HTTP client: JSON in and out, the API key as a bearer header, and the write discipline the API asks
 * of agents (docs/api.md "Idempotency"): every write carries an Idempotency-Key, and a write whose answer was lost (a
 * dropped connection, 503, 429, or 409 IDEMPOTENCY_REQUEST_IN_FLIGHT) is retried with the same key, so it is applied
 * once however often it is sent. Refusals become ApiProblem, with the RFC 9457 problem's code and detail.
 */
import { randomUUID } from "node:crypto";

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly body: Record<string, unknown>,
  ) {
    super(`${status} ${code}: ${detail}`);
  }
}

/** The service could not be reached (after the retries). */
export class Unreachable extends Error {}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  json: T;
  headers: Headers;
  /** The Idempotency-Key the write was sent with (null for reads). */
  idempotencyKey: string | null;
  /** True when the service answered with the stored answer of an earlier identical write. */
  replayed: boolean;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Retries of a write or read whose answer was lost or deferred (default 3). */
  retries?: number;
  sleep?: (ms: number) => Promise<void>;
}

const RETRYABLE = new Set([429, 503]);
const MAX_WAIT_MS = 10_000;

export class AgentClient {
  readonly baseUrl: string;
  readonly origin: string;
  private readonly retries: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.origin = new URL(this.baseUrl).origin;
    this.retries = opts.retries ?? 3;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  get apiKey(): string | undefined {
    return this.opts.apiKey;
  }

  /** `path` is relative to the API base, or to the host root when it starts with `//` (e.g. `//api/auth/nonce`). */
  async call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, opts: { idempotencyKey?: string } = {}): Promise<Answer<T>> {
    const url = path.startsWith("//") ? `${this.origin}${path.slice(1)}` : `${this.baseUrl}${path}`;
    const write = method !== "GET" && method !== "HEAD";
    const idempotencyKey = write ? (opts.idempotencyKey ?? randomUUID()) : null;
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    if (body !== undefined) headers["content-type"] = "application/json";
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      } catch (err) {
        if (attempt >= this.retries) throw new Unreachable(`${method} ${url}: ${(err as Error).message}`);
        await this.sleep(250 * 2 ** attempt);
        continue;
      }
      const text = await res.text();
      let json: Record<string, unknown> = {};
      try {
        json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        json = { code: "NOT_JSON", detail: text.slice(0, 200) };
      }
      const deferred = RETRYABLE.has(res.status) || (res.status === 409 && json.code === "IDEMPOTENCY_REQUEST_IN_FLIGHT");
      if (deferred && attempt < this.retries) {
        const after = Number(res.headers.get("retry-after"));
        await this.sleep(Number.isFinite(after) && after > 0 ? Math.min(after * 1000, MAX_WAIT_MS) : 250 * 2 ** attempt);
        continue;
      }
      if (!res.ok) throw new ApiProblem(res.status, String(json.code ?? `HTTP_${res.status}`), String(json.detail ?? json.title ?? res.statusText), json);
      return { status: res.status, json: json as T, headers: res.headers, idempotencyKey, replayed: res.headers.get("idempotent-replayed") === "true" };
    }
  }
}
