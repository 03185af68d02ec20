/**
 * Plain routes of the OpenAPI documents that are not agent API operations: the host-root alias /openapi.json (the
 * same document as GET {base}/openapi.json) and the interactive reference page at {base}/docs and /docs (Scalar, reference-page.ts).
 */
import type { Hono } from "hono";
import type { ServiceContext } from "../../context";
import type { Registry } from "../../registry/registry";
import { originOf } from "../rest/router";
import { openApiFor } from "../../registry/openapi/document";
import { mountReferencePage } from "./reference-page";

export function mountOpenApiDocuments(app: Hono, ctx: ServiceContext, registry: Registry): void {
  app.get("/openapi.json", (c) => c.json(openApiFor(registry, originOf(c, ctx.config.PUBLIC_URL))));
  mountReferencePage(app);
}
