/**
 * The operator's API, /admin/v1/* (docs/admin.md): a Hono sub-app beside the agent API, outside the registry, so it is
 * in neither openapi.json, MCP nor the capabilities. Every request, unknown paths included, must carry the operator
 * credential (token.ts) as `Authorization: Bearer <token>`; refusals are RFC 9457 problems like everywhere else.
 */
import { Hono } from "hono";
import type { ServiceContext } from "../../context";
import type { Services } from "../../services";
import { KEY_PREFIX } from "../../domain/auth/api-keys";
import { ApiError } from "../../platform/errors/api-error";
import { problemResponse } from "../../platform/errors/problem";
import type { AdminRouteModule } from "./define";
import { ADMIN_MODULES } from "./modules";
import { resolveAdminToken, tokenMatches, type AdminToken } from "./token";

export const ADMIN_BASE_PATH = "/admin/v1";
const BEARER = /^Bearer\s+(\S+)\s*$/i;
const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="admin"' };

export function mountAdmin(app: Hono, ctx: ServiceContext, services: Services, modules: readonly AdminRouteModule[] = ADMIN_MODULES): AdminToken {
  const credential = resolveAdminToken({ envToken: ctx.config.ADMIN_TOKEN, dataDir: ctx.config.dataDir });
  const partial = { ctx, services, mounted: [] as string[] };
  const enabled = modules.filter((m) => m.enabled?.(partial) ?? true);
  const deps = { ctx, services, mounted: enabled.map((m) => m.name) };
  const admin = new Hono();
  admin.use("*", async (c, next) => {
    const m = BEARER.exec(c.req.header("authorization") ?? "");
    if (!m)
      throw new ApiError(
        "AUTH_REQUIRED",
        "the admin API needs the operator credential: Authorization: Bearer <ADMIN_TOKEN or the token in DATA_DIR/admin-token>",
        {},
        CHALLENGE,
      );
    if (m[1].startsWith(KEY_PREFIX))
      throw new ApiError(
        "AUTH_REQUIRED",
        "an agent API key is not the operator credential; use ADMIN_TOKEN or the token in DATA_DIR/admin-token",
        {},
        CHALLENGE,
      );
    if (!tokenMatches(m[1], credential.token)) throw new ApiError("AUTH_REQUIRED", "the operator credential is not valid", {}, CHALLENGE);
    await next();
  });
  for (const module of enabled) module.mount(admin, deps);
  // Its own problem handler, so the sub-app answers problems wherever it is mounted (tests mount it alone).
  admin.onError((err, c) => {
    if (err instanceof ApiError) return problemResponse(err, c.req.url);
    const requestId = c.var.requestId ?? "unknown";
    ctx.log.error({ err, requestId, method: c.req.method, path: new URL(c.req.url).pathname }, "internal error");
    return problemResponse(new ApiError("INTERNAL_ERROR", `Internal error; quote request id ${requestId}`), c.req.url, { requestId });
  });
  app.route(ADMIN_BASE_PATH, admin);
  return credential;
}
