/**
 * The demo creator: the agent that creates the demo markets at start-up through the negotiate flow (propose → accept
 * → prepare-deploy → commit-deploy), as an API client of the service's own REST routes, so the demo markets are
 * made, gated, stamped, journaled (BOND_LOCK, MARKET_SEED) and announced exactly like any agent's market. No side
 * door: the agent only holds what an operator can give any creator (the `partner` tier, a PM grant for seeds and
 * bonds). Idempotent across restarts: a demo externalId already listed is skipped, and accepted terms a stopped
 * start left undeployed are deployed, not proposed again.
 */
import type { Address } from "viem";
import { COLLATERAL_ASSET } from "../../../decoder";
import type { Clock } from "../../../relayer/clock";
import type { Database } from "../../../relayer/db/client";
import { creationBond } from "../../../relayer/lifecycle/fund-flows";
import { accepted } from "../../platform/errors/engine-rejection";
import { findPrincipal } from "../auth/api-keys";
import { issueDemoKey } from "../auth/local-agents";
import type { Venue } from "../venue/types";
import { setCreatorTier } from "./creator-admin";
import { liveNegotiationOf } from "./negotiation-store";
import type { MarketSpec } from "../markets/seed/market-spec";

export const DEMO_CREATOR_NAME = "demo-creator";

/** One REST call of the agent API (path relative to the API base), answered by the service's own app. */
export type ApiFetch = (path: string, init: RequestInit) => Promise<Response>;

export interface DemoCreatorDeps {
  db: Database;
  clock: Clock;
  chainId: number;
  venue: Venue;
  fetch: ApiFetch;
}

export interface DemoCreation {
  externalId: string;
  address: string;
  /** False when the market was listed by an earlier start. */
  created: boolean;
}

/** The body of POST /negotiate/propose for a demo spec (the flow stamps the fees from the factories). */
function requestOf(spec: MarketSpec) {
  return {
    externalId: spec.externalId,
    title: spec.title,
    description: spec.description,
    category: spec.category,
    outcomes: spec.outcomes,
    pricingModel: spec.pricingModel,
    collateral: "PM",
    closeTime: new Date(spec.closeTime).toISOString(),
    ...(spec.seed !== undefined ? { seed: spec.seed.toString() } : {}),
    resolutionSource: spec.resolutionSource,
  };
}

/** What creating `spec` locks on the committed lane: the bond, and an LMSR market's seed. */
const lockOf = (spec: MarketSpec) => creationBond(spec.seed ?? null) + (spec.seed ?? 0n);

export async function createDemoMarkets(d: DemoCreatorDeps, specs: readonly MarketSpec[]): Promise<DemoCreation[]> {
  const listed = await listedByExternalId(d.db, d.chainId, specs);
  const missing = specs.filter((s) => !listed.has(s.externalId));
  const out: DemoCreation[] = specs
    .filter((s) => listed.has(s.externalId))
    .map((s) => ({ externalId: s.externalId, address: listed.get(s.externalId)!, created: false }));
  if (missing.length === 0) return out;

  const agent = await issueDemoKey(d.db, d.clock, DEMO_CREATOR_NAME);
  const principal = await findPrincipal(d.db, agent.apiKey);
  if (!principal) throw new Error("the demo creator's key was not found right after it was issued");
  const account = (await d.venue.accountOf(principal)).toLowerCase() as Address;
  // The operator's grants, the same an operator can give any creator (docs/market-creation.md "Operator actions").
  await setCreatorTier(d.db, account, "partner", d.clock.now());
  const need = missing.reduce((sum, s) => sum + lockOf(s), 0n);
  const available = d.venue.exchange.engine.balance(account, COLLATERAL_ASSET).available;
  if (available < need) accepted(await d.venue.exchange.submit({ type: "credit", account, amount: need - available, reason: "GRANT" }));

  const call = async (method: "POST", path: string, body: unknown) => {
    const res = await d.fetch(path, {
      method,
      headers: { authorization: `Bearer ${agent.apiKey}`, "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`demo creator: ${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  };
  for (const spec of missing) {
    // Terms accepted by a start that stopped before deploying them are deployed now (proposing again would be refused).
    let id = (await liveNegotiationOf(d.db, agent.agentId, spec.externalId, d.clock.now()))?.id;
    if (!id) {
      id = String((await call("POST", "/negotiate/propose", requestOf(spec))).id);
      await call("POST", `/negotiate/${id}/accept`, {});
    }
    await call("POST", `/negotiate/${id}/prepare-deploy`, {});
    const deployed = await call("POST", `/negotiate/${id}/commit-deploy`, {});
    out.push({ externalId: spec.externalId, address: String((deployed.market as { address: string }).address), created: true });
  }
  return out;
}

/** The specs' externalIds already listed on the chain, by anyone (an older start listed them without the flow). */
async function listedByExternalId(db: Database, chainId: number, specs: readonly MarketSpec[]): Promise<Map<string, string>> {
  const rows = await db.query<{ external_id: string; address: string }>(
    `SELECT external_id, address FROM markets WHERE chain_id = $1 AND external_id IN (SELECT jsonb_array_elements_text($2::text::jsonb))`,
    [chainId, JSON.stringify(specs.map((s) => s.externalId))],
  );
  return new Map(rows.map((r) => [r.external_id, r.address]));
}
