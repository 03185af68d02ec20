/**
 * Markets of the committed venue exist twice: listed in the catalog (what discovery reads) and created in the engine
 * (what trades). `listInEngine` creates, for every seeded catalog market the engine does not know yet, its engine
 * market with the catalog's stamped fees; an LMSR market's seed is granted to the house account and paid into the
 * pool by the createMarket command itself. Re-running it after a restart changes nothing.
 */
import type { Address } from "viem";
import type { Exchange } from "../../../relayer/exchange/exchange";
import type { FeeModel } from "../../../relayer/engine/types";
import { accepted } from "../../platform/errors/engine-rejection";
import type { ServiceContext } from "../../context";
import { HOUSE_CREATOR, seedCatalog } from "../markets/seed/seed-catalog";
import type { MarketSpec } from "../markets/seed/market-spec";
import { getMarket, marketFromRow, MARKET_COLUMNS } from "../markets/catalog-store";
import type { CatalogMarket } from "../markets/catalog-types";

export async function listMarketsInVenue(ctx: ServiceContext, exchange: Exchange, specs: readonly MarketSpec[]): Promise<CatalogMarket[]> {
  const seeded = await seedCatalog(ctx.db, ctx.clock, specs, { chainId: ctx.config.CHAIN_ID });
  const out: CatalogMarket[] = [];
  for (const s of seeded) {
    const market = await getMarket(ctx.db, ctx.config.CHAIN_ID, s.address, ctx.clock.now());
    if (!market) throw new Error(`seeded market ${s.address} is not in the catalog`);
    await createInEngine(exchange, market);
    out.push(market);
  }
  return out;
}

/**
 * Creates in the engine every committed-lane catalog market of the chain it does not know yet (markets listed by
 * `npm run seed` while the service was stopped), in market id order so the journal reads naturally.
 */
export async function createListedMarkets(ctx: ServiceContext, exchange: Exchange): Promise<number> {
  const now = ctx.clock.now();
  const rows = await ctx.db.query<Record<string, unknown>>(
    `SELECT ${MARKET_COLUMNS} FROM markets m WHERE m.chain_id = $2 AND m.settlement = 'committed' ORDER BY m.market_id`,
    [now, ctx.config.CHAIN_ID],
  );
  let created = 0;
  for (const row of rows) {
    const m = marketFromRow(row);
    // A market that is no longer open in the catalog has nothing left to trade: it is not created late.
    if (m.marketId === null || m.state !== "open" || exchange.engine.market(m.marketId)) continue;
    await createInEngine(exchange, m);
    created++;
  }
  return created;
}

/** Creates the engine market of a committed catalog market unless the engine has it. */
export async function createInEngine(exchange: Exchange, m: CatalogMarket): Promise<void> {
  if (m.marketId === null) throw new Error(`${m.address} has no engine market id (onchain lane)`);
  if (exchange.engine.market(m.marketId)) return;
  const lmsr = m.pricingModel === "automated";
  const funder = HOUSE_CREATOR as Address;
  const seed = lmsr ? (m.lmsrSeed ?? 0n) : undefined;
  if (seed) accepted(await exchange.submit({ type: "credit", account: funder, amount: seed, reason: "GRANT" }));
  const created = await exchange.submit({
    type: "createMarket",
    marketId: m.marketId,
    pricing: lmsr ? "LMSR" : "ORDERBOOK",
    outcomes: m.outcomes.length,
    feeModel: m.feePolicyVersion as FeeModel,
    takerFeeBps: m.takerFeeBps,
    sellExitFeeBps: m.sellExitFeeBps,
    winningsExitFeeBps: m.winningsExitFeeBps,
    ...(lmsr ? { seed, funder } : {}),
  });
  accepted(created);
}
