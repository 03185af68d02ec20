import type { Hono } from "hono";
import type { ServiceContext } from "../../context";
import type { Registry } from "../../registry/registry";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { originOf } from "../rest/router";
import { agentCardJson } from "./card";
import { documentUrls } from "../../registry/document-paths";
import { wantsSitePage } from "../site/mount";

export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

export function mountAgentCard(app: Hono, ctx: ServiceContext, registry: Registry): void {
  app.get(AGENT_CARD_PATH, (c) => c.json(agentCardJson(registry, originOf(c, ctx.config.PUBLIC_URL), ctx.config.CHAIN_ID) as object));
  // The card's provider.url is the origin: it answers with where everything is, rather than 404. A browser (Accept
  // naming text/html) gets the web site's home page instead (api/transports/site).
  app.get("/", (c, next) => {
    c.header("vary", "Accept");
    if (wantsSitePage(c)) return next();
    const origin = originOf(c, ctx.config.PUBLIC_URL);
    return c.json({ name: "Agent prediction-market", apiBaseUrl: `${origin}${API_BASE_PATH}`, documents: documentUrls(origin) });
  });
}
