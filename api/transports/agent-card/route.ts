import type { Hono } from "hono";
import type { ServiceContext } from "../../context";
import type { Registry } from "../../registry/registry";
import { originOf } from "../rest/router";
import { agentCardJson } from "./card";

export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

export function mountAgentCard(app: Hono, ctx: ServiceContext, registry: Registry): void {
  app.get(AGENT_CARD_PATH, (c) => c.json(agentCardJson(registry, originOf(c, ctx.config.PUBLIC_URL), ctx.config.CHAIN_ID) as object));
}
