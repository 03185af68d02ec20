/**
 * The creator's funds (spec "Creator funds"): per market, the pool residual the creator collects after finality
 * (marketBalance) and its creation bond (bond). The engine holds the residual and what was collected; the journal
 * projection says what happened to the bond (BOND_RETURN, or slashed/awarded) and in which batch. Money only ever
 * reaches the creator: the engine refuses a collection by anyone else, and a sweep names the creator as recipient.
 */
import type { Address, Hex } from "viem";
import type { CreatorFundsView, LifecycleView } from "../../../relayer/engine";
import type { ServiceContext } from "../../context";
import type { CatalogMarket } from "../markets/catalog-types";
import { catalogByMarketIds } from "./catalog-ids";
import { formatUnits } from "./claims";
import type { JournalProjection } from "./journal-projection";
import type { LifecycleReads } from "./market-lifecycle";
import { fundMovementsOf, type FundMovement } from "./movements";

const PM = { symbol: "PM", decimals: 6 } as const;

export type BalanceStatus = "claimable" | "pending_resolution" | "challenge_window" | "too_early" | "zero" | "collected" | "unknown";

export interface CreatorMarketFunds {
  market: CatalogMarket;
  lifecycle: LifecycleView;
  funds: CreatorFundsView;
  movements: FundMovement[];
}

/**
 * Every market `creator` made that the engine holds a lifecycle for, oldest (market id) first, once the journal
 * projection has caught up (the bond's movements come from it).
 */
export async function creatorMarkets(
  ctx: ServiceContext,
  engine: LifecycleReads,
  projection: Pick<JournalProjection, "sync">,
  creator: Address,
): Promise<CreatorMarketFunds[]> {
  await projection.sync();
  const mine = engine.lifecycles().filter((l) => l.creator.toLowerCase() === creator.toLowerCase());
  const markets = await catalogByMarketIds(
    ctx.db,
    ctx.config.CHAIN_ID,
    mine.map((l) => BigInt(l.marketId)),
    ctx.clock.now(),
  );
  const out: CreatorMarketFunds[] = [];
  for (const l of mine) {
    const id = BigInt(l.marketId);
    const market = markets.get(id);
    const funds = engine.creatorFunds(id);
    if (!market || !funds) continue;
    out.push({ market, lifecycle: l, funds, movements: await fundMovementsOf(ctx.db, id) });
  }
  return out;
}

export function balanceStatus(f: CreatorMarketFunds): BalanceStatus {
  const { lifecycle: l, funds } = f;
  if (funds.final) return funds.collectable > 0n ? "claimable" : funds.collected > 0n ? "collected" : "zero";
  if (l.state === "open") return "too_early";
  if (l.state === "creator_proposal") return "challenge_window";
  return "pending_resolution";
}

/** The creator bond's fate, from the journal: locked, returned (BOND_RETURN) or slashed/awarded away. */
export function bondOf(f: CreatorMarketFunds) {
  const creator = f.lifecycle.creator.toLowerCase();
  const mine = f.movements.filter((m) => m.account === creator);
  const locked = mine.filter((m) => m.kind === "BOND_LOCK").reduce((s, m) => s + m.amount, 0n);
  const returned = mine.filter((m) => m.kind === "BOND_RETURN");
  const lost = mine.filter((m) => m.kind === "BOND_SLASH" || m.kind === "BOND_AWARD");
  const amountWei = locked.toString();
  const common = { amountWei, amountFormatted: formatUnits(locked, PM.decimals), symbol: "PM" as const };
  if (locked === 0n) return { ...common, status: "none" as const, displayStatus: "none" as const, reasonCode: "not_created" as const };
  if (returned.length > 0) {
    const last = returned[returned.length - 1]!;
    const tx = last.batch?.status === "confirmed" ? last.batch.txHash : null;
    return {
      ...common,
      status: "returned" as const,
      displayStatus: tx ? ("returned" as const) : ("syncing" as const),
      reasonCode: tx ? ("settled" as const) : ("indexing_pending" as const),
      ...(tx ? { txHash: tx, terminalTxHash: tx } : {}),
      returnedWei: returned.reduce((s, m) => s + m.amount, 0n),
    };
  }
  if (lost.length > 0) {
    return {
      ...common,
      status: "unavailable" as const,
      displayStatus: "unavailable" as const,
      reasonCode: "unavailable" as const,
      reason: "the creation bond was slashed (creator missed its window, or the proposal was overturned)",
    };
  }
  return {
    ...common,
    status: "pending" as const,
    displayStatus: "pending" as const,
    reasonCode: "unknown" as const,
    reason: "locked until the market is final; returned automatically when the creator's proposal stands",
  };
}

export function marketEntry(f: CreatorMarketFunds) {
  const status = balanceStatus(f);
  const amount = status === "claimable" ? f.funds.collectable : status === "collected" ? f.funds.collected : f.funds.residual;
  const { returnedWei: _r, ...bond } = { returnedWei: 0n, ...bondOf(f) };
  return {
    chainId: f.market.chainId,
    marketAddress: f.market.address,
    marketTitle: f.market.title,
    marketBalance: {
      status,
      amount: amount.toString(),
      amountFormatted: formatUnits(amount, f.market.collateral.decimals),
      tokenAddress: f.market.collateral.token,
      symbol: f.market.collateral.symbol,
      decimals: f.market.collateral.decimals,
      ...(status === "pending_resolution" || status === "challenge_window" || status === "too_early"
        ? { reason: `the residual is collectable once the market is final (now ${f.lifecycle.state})` }
        : {}),
    },
    bond,
  };
}

export function creatorFundsSummary(entries: CreatorMarketFunds[]) {
  const byToken = new Map<string, { chainId: number; tokenAddress: string | null; symbol: string; decimals: number; total: bigint }>();
  let returnedWei = 0n;
  let collectable = 0;
  for (const f of entries) {
    if (balanceStatus(f) === "claimable") {
      collectable++;
      const c = f.market.collateral;
      const key = `${f.market.chainId}:${c.token ?? c.symbol}`;
      const t = byToken.get(key) ?? { chainId: f.market.chainId, tokenAddress: c.token, symbol: c.symbol, decimals: c.decimals, total: 0n };
      t.total += f.funds.collectable;
      byToken.set(key, t);
    }
    const b = bondOf(f);
    if ("returnedWei" in b) returnedWei += b.returnedWei;
  }
  return {
    marketBalanceByToken: [...byToken.values()].map((t) => ({
      chainId: t.chainId,
      tokenAddress: t.tokenAddress,
      symbol: t.symbol,
      decimals: t.decimals,
      totalWei: t.total.toString(),
      totalFormatted: formatUnits(t.total, t.decimals),
    })),
    // Bonds come back on their own at finality (BOND_RETURN), so none ever waits for an action.
    bondReturnableWei: "0",
    bondReturnedWei: returnedWei.toString(),
    collectableCount: collectable,
  };
}

/** The batch transaction of a market's latest pool withdrawal, once confirmed. */
export function lastWithdrawal(movements: FundMovement[]): { amount: bigint; txHash: Hex | null; entrySeq: number } | null {
  const w = movements.filter((m) => m.kind === "POOL_WITHDRAW");
  const last = w[w.length - 1];
  if (!last) return null;
  return { amount: last.amount, txHash: last.batch?.status === "confirmed" ? last.batch.txHash : null, entrySeq: last.entrySeq };
}
