/**
 * How a page reads: it calls the registry's public operations inside the process (`app.fetch` with an internal
 * binding, as the MCP adapter does), so the site shows exactly what an agent reads over REST, validated by the same
 * schemas, and can never drift from the API. A page is charged once to the visitor's per-IP window; its reads are
 * not charged again. A refusal (bad query, unknown market) comes back as the operation's own RFC 9457 problem.
 */
import type { Context, Hono } from "hono";
import type { z } from "zod";
import { fullPath } from "../../registry/registry";
import type { AnyOperation } from "../../registry/types";
import type { InternalCall } from "../middleware/caller";

/** The operation's answer, as it travels in JSON. */
export type AnswerOf<O extends AnyOperation> = z.input<O["response"]>;

/** An operation's refusal: the problem's status, code and detail, shown on the page instead of the section. */
export class SiteProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${status} ${code}: ${detail}`);
  }
}

/** Query values as the site passes them: absent and empty values are left out, so the operation's default applies. */
export type QueryInput = Record<string, string | number | undefined>;

/** The concrete path of `op` with its `{name}` parameters filled in (each URI-encoded). */
export function pathOf(op: AnyOperation, params: Record<string, string> = {}): string {
  return fullPath(op).replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`site: ${op.id} needs path parameter ${name}`);
    return encodeURIComponent(v);
  });
}

export function searchOf(query: QueryInput = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** Reads a page's data: `read(op, params, query)` answers the operation's JSON or throws its SiteProblem. */
export type Reader = <O extends AnyOperation>(op: O, params?: Record<string, string>, query?: QueryInput) => Promise<AnswerOf<O>>;

export function readerFor(app: Hono, c: Context): Reader {
  const origin = new URL(c.req.url).origin;
  let n = 0;
  return async (op, params, query) => {
    if (op.permission !== "none" || op.method !== "GET") throw new Error(`site: ${op.id} is not a public read`);
    const requestId = `${c.var.requestId}.${++n}`.slice(0, 128);
    const internal: InternalCall = { surface: "site", ip: c.var.ip, requestId };
    const res = await app.fetch(new Request(`${origin}${pathOf(op, params)}${searchOf(query)}`, { headers: { "x-request-id": requestId } }), {
      internal,
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new SiteProblem(res.status, String(json.code ?? "INTERNAL_ERROR"), String(json.detail ?? json.title ?? "the read failed"));
    return json as AnswerOf<typeof op>;
  };
}
