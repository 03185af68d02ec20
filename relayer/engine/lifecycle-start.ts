/**
 * A market's life begins (createMarket with a creator): the lifecycle record, the creation bond locked from the
 * creator's PM (BOND_LOCK) and the MARKET_STATE `open`. An on-chain lane market exists here only as this record.
 */
import type { Address } from "viem";
import { createLifecycle } from "../lifecycle";
import { applySteps } from "./lifecycle-apply";
import { lcMarketView } from "./views";
import type { LcMarket, Market } from "./model";
import { invalid } from "./rejection";
import type { EngineState } from "./state";
import type { CreateMarketCommand, MarketView } from "./types";
import { isInt } from "./validation";

export function startLifecycle(
  s: EngineState,
  c: CreateMarketCommand,
  creator: Address,
  mkt: Market | undefined,
  at: number,
): { lm: LcMarket; view: MarketView } {
  const openTime = c.openTime ?? at;
  if (!isInt(openTime, 0, Number.MAX_SAFE_INTEGER - 1)) return invalid("openTime must be an epoch-ms integer", { field: "openTime" });
  if (!isInt(c.closeTime, 0, Number.MAX_SAFE_INTEGER - 1)) return invalid("a market with a creator needs closeTime (epoch ms)", { field: "closeTime" });
  if (c.closeTime <= at) return invalid("closeTime must be in the future", { field: "closeTime" });
  const seed = c.pricing === "LMSR" ? (c.seed ?? null) : null;
  const r = createLifecycle({ creator, outcomes: c.outcomes, openTime, closeTime: c.closeTime, seed, at });
  if (!r.ok) return invalid(r.refusal.code === "INVALID_TERMS" ? r.refusal.reason : r.refusal.code, { field: "closeTime" });
  const id = c.marketId;
  const lm: LcMarket = {
    id,
    idStr: id.toString(),
    lane: mkt ? "committed" : "onchain",
    terms: {
      pricing: c.pricing,
      outcomes: c.outcomes,
      feeModel: c.feeModel,
      takerFeeBps: c.takerFeeBps,
      sellExitFeeBps: c.sellExitFeeBps,
      winningsExitFeeBps: c.winningsExitFeeBps,
      seed,
      createdAt: at,
    },
    mkt,
    lc: r.market,
    salts: new Map(),
    receipts: [],
    finalAt: null,
    settlement: null,
    collected: 0n,
    ep: 0,
  };
  s.lifecycles.set(id, lm);
  s.u.fn(() => {
    s.lifecycles.delete(id);
    s.lcDirty = true;
  });
  if (mkt) {
    // A market created in this command: its rollback drops the whole record, so these need no undo entry.
    mkt.lcm = lm;
    mkt.closeAt = c.closeTime;
  }
  applySteps(s, lm, r.market, r.steps);
  return { lm, view: lcMarketView(lm) };
}
