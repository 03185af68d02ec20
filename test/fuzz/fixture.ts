/**
 * The service the fuzz and the auth matrix run against: a real service on a port (PGlite, or Postgres with
 * DATABASE_URL), every registration path open so each branch is reachable, rate windows far above what a run sends
 * (the manual clock never opens a new window), private webhook targets allowed (no DNS from the fuzz), and a few real
 * resources whose ids the generators offer.
 */
import { randomUUID } from "node:crypto";
import { createLocalAgent, type LocalAgent } from "../../api/domain/auth/local-agents";
import { apiClient, startTestService, type Json, type TestService } from "../support/service";
import type { Hints } from "./json-arbitrary";

const HIGH = "1000000000";

export const FIXTURE_ENV: Record<string, string> = {
  PM_STARTING_GRANT: (1_000_000n * 1_000_000n).toString(),
  REGISTRATION_EMAIL_OPEN: "true",
  REGISTRATION_WALLET_OPEN: "true",
  REGISTRATION_ANONYMOUS_OPEN: "true",
  WEBHOOKS_ALLOW_PRIVATE: "true",
  // No indexer runs beside the test service: the onchain lane is off, so unknown markets are 404s rather than 503s.
  INDEXER_ENABLED: "false",
  RATE_LIMIT_READ_PER_MINUTE: HIGH,
  RATE_LIMIT_WRITE_PER_MINUTE: HIGH,
  RATE_LIMIT_DATA_PER_MINUTE: HIGH,
  RATE_LIMIT_MM_READ_PER_MINUTE: HIGH,
  RATE_LIMIT_MM_WRITE_PER_MINUTE: HIGH,
  RATE_LIMIT_MM_DATA_PER_MINUTE: HIGH,
  RATE_LIMIT_IP_PER_MINUTE: HIGH,
  RATE_LIMIT_REGISTER_PER_MINUTE: HIGH,
  RATE_LIMIT_RECOVERY_PER_MINUTE: HIGH,
};

export interface Fixture {
  t: TestService;
  /** Execute tier, every scope: passes every key check, so the fuzz reaches validation and the handlers. */
  agent: LocalAgent;
  /** Another agent, owner of the resources a call of `agent` must not reach. */
  other: LocalAgent;
  orderbookMarket: string;
  lmsrMarket: string;
  webhookId: string;
  otherWebhookId: string;
  hints: Hints;
}

export async function startFixture(env: Record<string, string> = {}): Promise<Fixture> {
  const t = await startTestService({ ...FIXTURE_ENV, ...env });
  const agent = await createLocalAgent(t.svc.ctx.db, t.clock, { name: `fuzz-${randomUUID().slice(0, 8)}` });
  const other = await createLocalAgent(t.svc.ctx.db, t.clock, { name: `other-${randomUUID().slice(0, 8)}` });
  const call = apiClient(t, agent.apiKey);
  const marketOf = async (model: string) => {
    const r = await call("GET", `/discover/markets?pricingModel=${model}&pageSize=5`);
    const m = (r.json.markets as Json[] | undefined)?.[0];
    if (!m) throw new Error(`fixture: no ${model} market (${r.status} ${JSON.stringify(r.json).slice(0, 200)})`);
    return String(m.address);
  };
  // An agent's ledger account opens (its starting grant, a journal entry) on its first order-book call, whatever that
  // call's outcome; opened here, so a refusal the fuzz sends first is judged on what it changes itself.
  for (const key of [agent.apiKey, other.apiKey]) await call("GET", "/orderbook/balances", undefined, { key });
  const orderbookMarket = await marketOf("ORDERBOOK");
  const lmsrMarket = await marketOf("automated");
  const hook = async (key: string) => {
    const r = await call("POST", "/webhooks", { url: "http://127.0.0.1:9/hook" }, { key });
    if (r.status !== 201) throw new Error(`fixture: webhook ${r.status} ${JSON.stringify(r.json)}`);
    return String(r.json.id ?? r.json.webhookId);
  };
  const webhookId = await hook(agent.apiKey);
  const otherWebhookId = await hook(other.apiKey);
  const chainId = t.svc.ctx.config.CHAIN_ID;
  const markets = [orderbookMarket, lmsrMarket];
  const hints: Hints = {
    market: markets,
    marketAddress: markets,
    address: markets,
    marketAddresses: [markets, [orderbookMarket]],
    chainId: [chainId],
    webhookId: [webhookId, otherWebhookId],
    agentId: [agent.agentId, other.agentId],
    keyId: [other.keyId],
    url: ["http://127.0.0.1:9/hook"],
  };
  return { t, agent, other, orderbookMarket, lmsrMarket, webhookId, otherWebhookId, hints };
}
