/**
 * How an admin route module looks (docs/admin.md "Adding a route"): one file per area exports `defineAdminRoutes({…})`
 * and is listed once in ./modules.ts. `mount` receives a Hono router already behind the operator credential and the
 * problem handler, rooted at /admin/v1; `enabled` (optional) keeps a module unmounted, so its paths answer 404.
 */
import type { Context, Hono } from "hono";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import type { Services } from "../../services";
import { ApiError } from "../../platform/errors/api-error";
import { fieldErrors, invalidPayload } from "../../platform/errors/invalid-payload";

export interface AdminDeps {
  ctx: ServiceContext;
  services: Services;
  /** Names of the modules mounted on this service. */
  mounted: readonly string[];
}

export interface AdminRouteModule {
  /** A short name, listed by GET /admin/v1/status. */
  name: string;
  /** Mounted only when this answers true (default: always). */
  enabled?(deps: AdminDeps): boolean;
  mount(router: Hono, deps: AdminDeps): void;
}

export function defineAdminRoutes(module: AdminRouteModule): AdminRouteModule {
  return module;
}

/** The JSON body parsed by `schema`, or INVALID_PAYLOAD naming the fields. An empty body parses as `{}`. */
export async function adminBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text();
  let raw: unknown = {};
  if (text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new ApiError("INVALID_PAYLOAD", `malformed JSON body: ${(err as Error).message}`, { field: "(body)", location: "body" });
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidPayload(fieldErrors("body", parsed.error));
  return parsed.data;
}

/** The query string parsed by `schema`, or INVALID_PAYLOAD naming the fields. */
export function adminQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw invalidPayload(fieldErrors("query", parsed.error));
  return parsed.data;
}

/** A JSON answer whose bigints are decimal strings, like every other JSON the service writes. */
export function adminJson(c: Context, body: unknown, status: 200 | 201 = 200): Response {
  return c.body(
    JSON.stringify(body, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
    status,
    { "content-type": "application/json" },
  );
}
