/**
 * The demo markets `npm start` seeds so a newcomer finds a living venue: binary order-book markets (the demo market
 * maker quotes them) and binary LMSR markets, all on the committed lane, whose ledger is binary (a three-way market
 * trades on the on-chain lane). Deadlines are relative to the clock at seeding time.
 */
import type { MarketSpec } from "./market-spec";

const DAY = 86_400_000;
const PM = 1_000_000n;

export function demoMarkets(now: number): MarketSpec[] {
  const creator = { type: "creator" as const, note: "Resolved by the market creator from the named public source." };
  return [
    {
      externalId: "demo:btc-150k-2027q1",
      title: "Will Bitcoin trade above $150,000 on any major exchange before April 1, 2027?",
      description: "Resolves YES if the BTC/USD spot price on Coinbase, Kraken or Bitstamp prints above 150,000 before 2027-04-01 00:00 UTC.",
      category: "CRYPTO",
      pricingModel: "ORDERBOOK",
      outcomes: ["Yes", "No"],
      closeTime: now + 120 * DAY,
      takerFeeBps: 100,
      feePolicyVersion: "notional-v1",
      resolutionSource: creator,
    },
    {
      externalId: "demo:fed-cut-2027-01",
      title: "Will the Federal Reserve cut the federal funds target range at its January 2027 meeting?",
      description: "Resolves YES if the FOMC statement of the January 2027 meeting lowers the target range.",
      category: "ECONOMY",
      pricingModel: "ORDERBOOK",
      outcomes: ["Yes", "No"],
      closeTime: now + 60 * DAY,
      takerFeeBps: 150,
      feePolicyVersion: "shares-v2",
      resolutionSource: creator,
    },
    {
      externalId: "demo:open-model-frontier-2027",
      title: "Will an open-weights model top the LMArena text leaderboard before July 2027?",
      description: "Resolves YES if a model with publicly downloadable weights holds rank 1 on the LMArena text leaderboard on any day before 2027-07-01.",
      category: "AI",
      pricingModel: "ORDERBOOK",
      outcomes: ["Yes", "No"],
      closeTime: now + 200 * DAY,
      takerFeeBps: 100,
      feePolicyVersion: "notional-v1",
      resolutionSource: creator,
    },
    {
      externalId: "demo:eth-etf-flows-dec",
      title: "Will US spot Ether ETFs record net inflows in December 2026?",
      description: "Resolves YES if the sum of daily net flows of US spot Ether ETFs over December 2026 is positive.",
      category: "FINANCE",
      pricingModel: "automated",
      outcomes: ["Yes", "No"],
      closeTime: now + 40 * DAY,
      seed: 1_000n * PM,
      takerFeeBps: 0,
      feePolicyVersion: "notional-v1",
      resolutionSource: creator,
    },
    {
      externalId: "demo:world-cup-2026-final-goals",
      title: "Will the 2026 World Cup final produce 3 or more goals in regular time?",
      description: "Resolves YES if the two teams score 3 or more goals between them by the end of regular time of the final.",
      category: "SPORTS",
      pricingModel: "automated",
      outcomes: ["Yes", "No"],
      closeTime: now + 30 * DAY,
      seed: 1_500n * PM,
      takerFeeBps: 0,
      feePolicyVersion: "notional-v1",
      resolutionSource: creator,
    },
    {
      externalId: "demo:arctic-sea-ice-2027",
      title: "Will Arctic sea-ice extent set a new record low in September 2027?",
      description: "Resolves YES if NSIDC's September 2027 monthly mean extent is the lowest on record.",
      category: "CLIMATE",
      pricingModel: "automated",
      outcomes: ["Yes", "No"],
      closeTime: now + 300 * DAY,
      seed: 800n * PM,
      takerFeeBps: 0,
      feePolicyVersion: "notional-v1",
      resolutionSource: creator,
    },
  ] as MarketSpec[];
}
