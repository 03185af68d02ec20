/**
 * Plain routes of the OpenAPI documents that are not agent API operations: the host-root alias /openapi.json (the
 * same document as GET {base}/openapi.json) and the interactive reference page at {base}/docs and /docs (Scalar).
 */
import type { Hono } from "hono";
import { Scalar } from "@scalar/hono-api-reference";
import type { ServiceContext } from "../../context";
import { API_BASE_PATH, type Registry } from "../../registry/registry";
import { originOf } from "../rest/router";
import { openApiFor } from "./document";

export function mountOpenApiDocuments(app: Hono, ctx: ServiceContext, registry: Registry): void {
  app.get("/openapi.json", (c) => c.json(openApiFor(registry, originOf(c, ctx.config.PUBLIC_URL))));
  const page = Scalar({ url: `${API_BASE_PATH}/openapi.json`, pageTitle: "Agent prediction-market API" });
  app.get(`${API_BASE_PATH}/docs`, page);
  app.get("/docs", page);
}
