/**
 * The negotiate flow's deploy steps (docs/market-creation.md "Deploy"). prepare-deploy reserves the engine market id
 * (one id space for both lanes) and says what will be locked, or which transactions to sign; commit-deploy creates
 * the market: on the committed lane through the engine (journaled createMarket: BOND_LOCK, MARKET_SEED), on the
 * on-chain lane after checking the factory's receipt against the accepted terms (./onchain-deploy.ts), then lists it
 * in the catalog and announces it. Per negotiation the steps run one at a time, and a deployed negotiation answers
 * its stored result: a repeated commit-deploy never creates twice.
 */
import type { Address } from "viem";
import { poolAccountOf } from "../../../decoder/assets";
import type { CommitUnit } from "../../../relayer/db/group-commit";
import type { CreateMarketCommand, FeeModel } from "../../../relayer/engine/types";
import { creatorResolveBy } from "../../../relayer/lifecycle/deadlines";
import { ApiError } from "../../platform/errors/api-error";
import { accepted } from "../../platform/errors/engine-rejection";
import type { KeyPrincipal } from "../auth/principal";
import { committedListing, LISTINGS_SINK } from "../markets/catalog-store";
import type { CatalogMarket } from "../markets/catalog-types";
import { creationState } from "./creation-state";
import { requireNegotiation, type CreationDeps } from "./flow";
import { NEGOTIATION_MOVES_SINK, negotiationMoveRow, type Negotiation } from "./negotiation-store";
import { listOnchainMarket, onchainTransactions, verifyCreation, type VerifiedCreation } from "./onchain-deploy";

const iso = (ms: number) => new Date(ms).toISOString();

/** One step at a time per negotiation in this process (the exchange is a single writer per database). */
const running = new Map<string, Promise<unknown>>();
function serialised<T>(id: string, fn: () => Promise<T>): Promise<T> {
  const prev = running.get(id) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  const settled = next.then(
    () => {},
    () => {},
  );
  running.set(id, settled);
  void settled.then(() => {
    if (running.get(id) === settled) running.delete(id);
  });
  return next;
}
/**
 * The negotiation's engine market id: the one it holds, or the next above every id the catalog lists and every id a
 * negotiation reserved (handed out in memory, synchronously, so never twice), written with the negotiation. In
 * commit-deploy the reservation commits in a unit of its own before the market is created: the journal entry then
 * never names an id the negotiation does not hold.
 */
async function reserveId(d: CreationDeps, n: Negotiation, unit: CommitUnit | null): Promise<bigint> {
  if (n.marketId !== null) return n.marketId;
  const state = creationState(d.ctx.db);
  const cohort = await state.cohort();
  const current = state.negotiations.get(n.id) ?? n;
  if (current.marketId !== null) return current.marketId;
  const marketId = cohort.maxMarketId + 1n;
  const next = { ...current, marketId };
  // The highest id moves with the negotiation, also in a mirror read again before this commits.
  await state.stage(
    [[NEGOTIATION_MOVES_SINK, negotiationMoveRow(next)]],
    (s) => {
      s.setNegotiation(next);
      if (s.globals && s.globals.maxMarketId < marketId) s.globals.maxMarketId = marketId;
    },
    { unit, negotiationId: next.id },
  );
  return marketId;
}

function deployable(d: CreationDeps, n: Negotiation): void {
  if (n.status !== "accepted")
    throw new ApiError("NEGOTIATION_STATE", `negotiation ${n.id} is ${n.status}; deploying needs accepted terms`, { status: n.status, negotiationId: n.id });
  if (d.ctx.clock.now() >= n.expiresAt)
    throw new ApiError("NEGOTIATION_EXPIRED", `the accepted terms had to be deployed by ${iso(n.expiresAt)}; propose again`, { negotiationId: n.id });
}

export function prepareDeploy(d: CreationDeps, principal: KeyPrincipal, id: string, unit: CommitUnit | null) {
  return serialised(id, async () => {
    const n = await requireNegotiation(d, principal, id);
    if (n.status !== "deployed") deployable(d, n);
    const marketId = await reserveId(d, n, unit);
    const t = n.terms;
    return {
      negotiationId: n.id,
      lane: n.lane,
      chainId: t.chainId,
      marketId: marketId.toString(),
      address: n.lane === "committed" ? poolAccountOf(marketId).toLowerCase() : n.marketAddress,
      lock: { account: n.creator, pm: t.lock.pm, bond: t.bond.amount, seed: t.seed, collateral: t.lock.collateral },
      transactions: n.lane === "onchain" ? onchainTransactions(d.ctx.config, n) : [],
      deployBy: iso(n.expiresAt),
    };
  });
}

/** The engine command that gives the market its lifecycle (and, on the committed lane, its book or pool). */
function createCommand(n: Negotiation, marketId: bigint, openTime: number): CreateMarketCommand {
  const t = n.terms;
  const lmsr = t.pricingModel === "automated";
  const creator = n.creator as Address;
  const seed = t.seed === null ? undefined : BigInt(t.seed);
  return {
    type: "createMarket",
    marketId,
    pricing: lmsr ? "LMSR" : "ORDERBOOK",
    outcomes: t.outcomes.length,
    feeModel: t.fees.feePolicyVersion as FeeModel,
    takerFeeBps: t.fees.takerFeeBps,
    sellExitFeeBps: t.fees.sellExitFeeBps,
    winningsExitFeeBps: t.fees.winningsExitFeeBps,
    ...(lmsr ? { seed, funder: creator } : {}),
    creator,
    openTime,
    closeTime: Date.parse(t.deadlines.closeTime),
    lane: n.lane,
  };
}

export function commitDeploy(d: CreationDeps, principal: KeyPrincipal, id: string, body: { txHash?: string }, unit: CommitUnit | null) {
  return serialised(id, async () => {
    const n = await requireNegotiation(d, principal, id);
    if (n.status === "deployed" && n.result) {
      if (body.txHash && n.txHash && body.txHash.toLowerCase() !== n.txHash) {
        throw new ApiError("NEGOTIATION_STATE", `negotiation ${n.id} was deployed by ${n.txHash}`, { status: n.status, negotiationId: n.id, txHash: n.txHash });
      }
      return n.result;
    }
    if (n.lane === "onchain" && !body.txHash)
      throw new ApiError("INVALID_PAYLOAD", "an on-chain commit-deploy takes the factory transaction's txHash", { field: "txHash" });
    deployable(d, n);
    // Verify the chain's receipt before anything is reserved, locked or listed.
    const verified = n.lane === "onchain" ? await verifyCreation(d.ctx.config, n, body.txHash as `0x${string}`) : null;
    // The market id in a unit of its own, committed before the engine's entry (below).
    const marketId = await reserveId(d, n, null);
    const now = d.ctx.clock.now();
    const exchange = d.venue.exchange;
    // Outside the call's commit unit: the market's journal entry is durable before it is listed and the negotiation
    // marked deployed, so a crash in between leaves a market a retry finds, never a listing the journal lacks.
    if (!exchange.engine.market(marketId)) accepted(await exchange.submit(createCommand(n, marketId, now)));
    const state = creationState(d.ctx.db);
    const { market, listingRow } = await list(d, n, marketId, now, verified);
    const result = deployedResult(n, market, verified?.txHash ?? null, now);
    const deployed: Negotiation = {
      ...(state.negotiations.get(n.id) ?? n),
      marketId,
      status: "deployed",
      marketAddress: market.address,
      txHash: verified?.txHash ?? null,
      result: JSON.parse(JSON.stringify(result)) as Record<string, unknown>,
      deployedAt: now,
    };
    const key = `${market.chainId}:${market.address}`;
    // The listing (committed lane) and the deployed negotiation commit with the call's answer, in one tick; in the
    // mirror the market is the creator's and the negotiation its deployed claim.
    await state.stage(
      [...(listingRow === null ? [] : [[LISTINGS_SINK, listingRow] as const]), [NEGOTIATION_MOVES_SINK, negotiationMoveRow(deployed)] as const],
      (s) => {
        s.setNegotiation(deployed);
        const e = s.creators.get(deployed.creator);
        e?.claims.set(deployed.id, { externalId: deployed.externalId, status: "deployed", expiresAt: deployed.expiresAt });
        e?.markets.set(key, { marketId: marketId.toString(), externalId: deployed.externalId, state: market.state });
      },
      // Announced once listed: a subscriber that reads the catalog on the event finds the market.
      { unit, negotiationId: deployed.id, afterCommit: () => d.announce?.(market) },
    );
    return result;
  });
}

/**
 * The market's listing: on the committed lane a row for the call's commit unit (written with the deployed
 * negotiation), on the on-chain lane listed here once the receipt was verified.
 */
async function list(
  d: CreationDeps,
  n: Negotiation,
  marketId: bigint,
  now: number,
  verified: VerifiedCreation | null,
): Promise<{ market: CatalogMarket; listingRow: string | null }> {
  const t = n.terms;
  const chainId = t.chainId;
  const listing = {
    chainId,
    pricingModel: t.pricingModel,
    title: t.title,
    description: t.description,
    category: t.category,
    outcomes: t.outcomes,
    creator: n.creator,
    collateral: { symbol: t.collateral.symbol, decimals: t.collateral.decimals, token: t.collateral.token },
    openTime: now,
    closeTime: Date.parse(t.deadlines.closeTime),
    takerFeeBps: t.fees.takerFeeBps,
    feePolicyVersion: t.fees.feePolicyVersion,
    sellExitFeeBps: t.fees.sellExitFeeBps,
    winningsExitFeeBps: t.fees.winningsExitFeeBps,
    lmsrSeed: t.seed === null ? undefined : BigInt(t.seed),
    resolutionSource: t.resolutionSource as Record<string, unknown>,
    sourceConditionId: t.resolutionSource.type === "polymarket" ? t.resolutionSource.conditionId : undefined,
    externalId: n.externalId,
    marketId,
    createdAt: now,
  };
  if (verified) return { market: await listOnchainMarket(d.ctx.db, { ...listing, address: verified.market }), listingRow: null };
  const { row, market } = committedListing({ ...listing, settlement: "committed" });
  return { market, listingRow: row };
}

function deployedResult(n: Negotiation, m: CatalogMarket, txHash: string | null, now: number) {
  const t = n.terms;
  return {
    negotiationId: n.id,
    status: "deployed" as const,
    lane: n.lane,
    market: {
      address: m.address,
      marketId: (m.marketId ?? 0n).toString(),
      chainId: m.chainId,
      state: m.state,
      pricingModel: m.pricingModel,
      outcomes: m.outcomes,
      openTime: iso(m.openTime),
      closeTime: iso(m.closeTime),
      creatorResolveBy: iso(creatorResolveBy(m.closeTime)),
    },
    locked: { account: n.creator, pm: t.lock.pm, bond: t.bond.amount, seed: t.seed },
    txHash,
    deployedAt: iso(now),
  };
}
