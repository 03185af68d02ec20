/**
 * The claim routes' answers (spec "Claims and sweeps"): the caller's payouts of both lanes in market-id order, one
 * page at a time, with their value totals; per-market settlements for /claims/batch and /claims/simulate; receipts.
 * Committed payouts come from the journal (./movements.ts), on-chain ones from the contract (./onchain-claims.ts).
 */
import type { Address } from "viem";
import type { ServiceContext } from "../../context";
import { ApiError } from "../../platform/errors/api-error";
import { getMarket } from "../markets/catalog-store";
import type { CatalogMarket } from "../markets/catalog-types";
import { catalogByMarketIds } from "./catalog-ids";
import {
  committedPayoutItem,
  committedReceipt,
  committedSettlement,
  marketNotFoundSettlement,
  type ClaimReceipt,
  type ClaimSettlement,
  type PayoutItem,
} from "./claim-views";
import { payoutCount, payoutsIn, payoutsOf, type PayoutRecord } from "./movements";
import { onchainPayoutItem, onchainSettlement, type OnchainClaims } from "./onchain-claims";

/** Who claims: the agent's ledger account (committed lane) and its wallet (on-chain lane), if it has one. */
export interface Claimant {
  account: Address;
  wallet: Address | null;
}

export interface ClaimDeps {
  ctx: ServiceContext;
  onchain: OnchainClaims;
  /** Brings the journal projection up to date before a read. */
  sync(): Promise<void>;
}

/** Opaque page cursor: base64url of the last market id served (letters, digits, `_`, `-`). */
export function encodeClaimCursor(marketId: bigint): string {
  return Buffer.from(`m${marketId}`).toString("base64url");
}

export function decodeClaimCursor(cursor: string | undefined): bigint | undefined {
  if (cursor === undefined) return undefined;
  const text = /^[A-Za-z0-9_-]{1,512}$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  if (!/^m\d{1,20}$/.test(text)) throw new ApiError("INVALID_PAYLOAD", "cursor is not a nextCursor this server made", { field: "cursor", location: "query" });
  return BigInt(text.slice(1));
}

interface Entry {
  marketId: bigint;
  item: PayoutItem;
  market: CatalogMarket;
}

/** On-chain markets that settled and still owe `wallet` something (previewClaim > 0), market id ascending. */
async function onchainEntries(deps: ClaimDeps, wallet: Address | null): Promise<Entry[]> {
  if (wallet === null) return [];
  const { ctx } = deps;
  const rows = await ctx.db.query<{ address: string; market_id: string }>(
    `SELECT address, market_id::text FROM markets WHERE chain_id = $1 AND settlement = 'onchain' AND state IN ('resolved', 'void') AND market_id IS NOT NULL ORDER BY market_id`,
    [ctx.config.CHAIN_ID],
  );
  const out: Entry[] = [];
  for (const r of rows) {
    const m = await getMarket(ctx.db, ctx.config.CHAIN_ID, r.address, ctx.clock.now());
    if (!m) continue;
    const p = await deps.onchain.preview(m.address as Address, wallet);
    if (p && p.state !== 0 && p.payout > 0n) out.push({ marketId: BigInt(r.market_id), item: onchainPayoutItem(m, p), market: m });
  }
  return out;
}

async function committedEntries(
  deps: ClaimDeps,
  account: Address,
  after: bigint | undefined,
  limit: number,
): Promise<{ entries: Entry[]; unattributed: number }> {
  const { ctx } = deps;
  const records = await payoutsOf(ctx.db, account, { afterMarketId: after, limit });
  const markets = await catalogByMarketIds(
    ctx.db,
    ctx.config.CHAIN_ID,
    records.map((r) => r.marketId),
    ctx.clock.now(),
  );
  const entries: Entry[] = [];
  let unattributed = 0;
  for (const r of records) {
    const m = markets.get(r.marketId);
    if (!m) unattributed++;
    else entries.push({ marketId: r.marketId, item: committedPayoutItem(r, m), market: m });
  }
  return { entries, unattributed };
}

export interface ValueTotal {
  chainId: number;
  collateralToken: string | null;
  symbol: string;
  decimals: number;
  totalWei: string;
  totalFormatted: string;
}

export function formatUnits(v: bigint, decimals: number): string {
  const s = v.toString().padStart(decimals + 1, "0");
  const int = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, "");
  return frac ? `${int}.${frac}` : int;
}

function valueTotals(entries: Entry[]): ValueTotal[] {
  const by = new Map<string, ValueTotal & { sum: bigint }>();
  for (const e of entries) {
    const c = e.market.collateral;
    const key = `${e.market.chainId}:${c.token ?? c.symbol}`;
    const t = by.get(key) ?? {
      chainId: e.market.chainId,
      collateralToken: c.token,
      symbol: c.symbol,
      decimals: c.decimals,
      totalWei: "0",
      totalFormatted: "0",
      sum: 0n,
    };
    t.sum += BigInt(e.item.amount);
    by.set(key, t);
  }
  return [...by.values()].map(({ sum, ...t }) => ({ ...t, totalWei: sum.toString(), totalFormatted: formatUnits(sum, t.decimals) }));
}

export interface PayoutPage {
  payouts: PayoutItem[];
  totalClaimable: string;
  totalEligibleNow: string;
  excludedIneligibleCount: number;
  count: number;
  totalCount: number;
  valueTotals: ValueTotal[];
  unattributedPayoutCount: number;
  valueAttributionComplete: boolean;
  hasMore: boolean;
  nextCursor: string | null;
}

/** One page of the claimant's payouts (both lanes, market id ascending); `eligibleOnly` drops the ineligible ones. */
export async function payoutPage(deps: ClaimDeps, who: Claimant, page: { cursor?: string; limit: number; eligibleOnly?: boolean }): Promise<PayoutPage> {
  await deps.sync();
  const after = decodeClaimCursor(page.cursor);
  const [committed, onchainAll, committedTotal] = await Promise.all([
    committedEntries(deps, who.account, after, page.limit + 1),
    onchainEntries(deps, who.wallet),
    payoutCount(deps.ctx.db, who.account),
  ]);
  const onchain = after === undefined ? onchainAll : onchainAll.filter((e) => e.marketId > after);
  let merged = [...committed.entries, ...onchain].sort((a, b) => (a.marketId < b.marketId ? -1 : a.marketId > b.marketId ? 1 : 0));
  const excluded = page.eligibleOnly ? merged.filter((e) => !e.item.eligibleNow).length : 0;
  if (page.eligibleOnly) merged = merged.filter((e) => e.item.eligibleNow);
  const hasMore = merged.length > page.limit;
  const served = merged.slice(0, page.limit);
  const claimable = served.filter((e) => e.item.status === "claimable");
  const sum = (xs: Entry[]) => xs.reduce((s, e) => s + BigInt(e.item.amount), 0n).toString();
  return {
    payouts: served.map((e) => e.item),
    totalClaimable: sum(claimable),
    totalEligibleNow: sum(claimable.filter((e) => e.item.eligibleNow)),
    excludedIneligibleCount: excluded,
    count: served.length,
    totalCount: committedTotal + onchainAll.length,
    valueTotals: valueTotals(served),
    unattributedPayoutCount: committed.unattributed,
    valueAttributionComplete: committed.unattributed === 0,
    hasMore,
    nextCursor: hasMore && served.length > 0 ? encodeClaimCursor(served[served.length - 1]!.marketId) : null,
  };
}

/** The settlement of each requested market, in request order (/claims/batch and /claims/simulate). */
export async function settlementsOf(
  deps: ClaimDeps,
  who: Claimant,
  markets: readonly { chainId: number; marketAddress: string }[],
): Promise<ClaimSettlement[]> {
  await deps.sync();
  const { ctx } = deps;
  const found = await Promise.all(
    markets.map((r) => (r.chainId === ctx.config.CHAIN_ID ? getMarket(ctx.db, r.chainId, r.marketAddress, ctx.clock.now()) : Promise.resolve(null))),
  );
  const committedIds = found.filter((m): m is CatalogMarket => m !== null && m.settlement === "committed" && m.marketId !== null).map((m) => m.marketId!);
  const paid = await payoutsIn(ctx.db, who.account, committedIds);
  return Promise.all(
    markets.map(async (r, i) => {
      const m = found[i];
      if (!m || m.marketId === null) return marketNotFoundSettlement(r.chainId, r.marketAddress.toLowerCase());
      if (m.settlement === "committed") return committedSettlement(m, paid.get(m.marketId));
      const p = who.wallet ? await deps.onchain.preview(m.address as Address, who.wallet) : null;
      return onchainSettlement(m, who.wallet, p);
    }),
  );
}

/** The claimant's committed receipts, market id ascending, optionally of one market. */
export async function receiptPage(
  deps: ClaimDeps,
  who: Claimant,
  q: { cursor?: string; limit: number; chainId?: number; marketAddress?: string },
): Promise<{ receipts: ClaimReceipt[]; totalCount: number; hasMore: boolean; nextCursor: string | null }> {
  await deps.sync();
  const { ctx } = deps;
  if (q.chainId !== undefined && q.chainId !== ctx.config.CHAIN_ID) return { receipts: [], totalCount: 0, hasMore: false, nextCursor: null };
  let records: PayoutRecord[];
  let total: number;
  if (q.marketAddress !== undefined) {
    const m = await getMarket(ctx.db, ctx.config.CHAIN_ID, q.marketAddress, ctx.clock.now());
    const r = m?.marketId != null && m.settlement === "committed" ? (await payoutsIn(ctx.db, who.account, [m.marketId])).get(m.marketId) : undefined;
    records = r && q.cursor === undefined ? [r] : [];
    total = r ? 1 : 0;
  } else {
    records = await payoutsOf(ctx.db, who.account, { afterMarketId: decodeClaimCursor(q.cursor), limit: q.limit + 1 });
    total = await payoutCount(ctx.db, who.account);
  }
  const hasMore = records.length > q.limit;
  const served = records.slice(0, q.limit);
  const markets = await catalogByMarketIds(
    ctx.db,
    ctx.config.CHAIN_ID,
    served.map((r) => r.marketId),
    ctx.clock.now(),
  );
  const receipts = served.flatMap((r) => {
    const m = markets.get(r.marketId);
    return m ? [committedReceipt(r, m)] : [];
  });
  return { receipts, totalCount: total, hasMore, nextCursor: hasMore && served.length > 0 ? encodeClaimCursor(served[served.length - 1]!.marketId) : null };
}
