/**
 * A catalog market with the lifecycle the engine holds for it (the engine is the authority on state and deadlines;
 * the catalog names the market), and the serialisation of that lifecycle the resolution routes share.
 */
import { z } from "zod";
import type { Address } from "viem";
import type { Engine, LifecycleView } from "../../../relayer/engine";
import type { Verdict } from "../../../relayer/lifecycle";
import { ApiError } from "../../platform/errors/api-error";
import type { ServiceContext } from "../../context";
import { getMarket } from "../markets/catalog-store";
import type { CatalogMarket } from "../markets/catalog-types";

/** What the resolution reads take from the venue's engine: the authority on every market's lifecycle. */
export type LifecycleReads = Pick<Engine, "lifecycle" | "lifecycles" | "council" | "creatorFunds">;

export interface MarketWithLifecycle {
  market: CatalogMarket;
  marketId: bigint;
  lifecycle: LifecycleView;
}

/** The market at `address` and its lifecycle; MARKET_NOT_FOUND for an unknown market or one without a lifecycle. */
export async function marketLifecycleAt(ctx: ServiceContext, engine: LifecycleReads, address: string, chainId?: number): Promise<MarketWithLifecycle> {
  const chain = chainId ?? ctx.config.CHAIN_ID;
  const market = await getMarket(ctx.db, chain, address, ctx.clock.now());
  if (!market) throw new ApiError("MARKET_NOT_FOUND", `no market ${address} on chain ${chain}`, { address, chainId: chain });
  const lifecycle = market.marketId === null ? undefined : engine.lifecycle(market.marketId);
  if (!lifecycle || market.marketId === null) {
    throw new ApiError("MARKET_NOT_FOUND", `market ${market.address} has no resolution lifecycle (a demo market without a creator resolves by the operator)`, {
      address: market.address,
      chainId: chain,
    });
  }
  return { market, marketId: market.marketId, lifecycle };
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

export const verdictSchema = z.union([z.number().int().min(0), z.literal("void")]);

/** An outcome index or "void", with its label. */
export function verdictView(v: Verdict, labels: readonly string[]) {
  return { outcome: v, label: v === "void" ? "VOID" : (labels[v] ?? `OUTCOME_${v}`) };
}

export const deadlinesSchema = z.object({
  openTime: z.string(),
  closeTime: z.string(),
  creatorResolveBy: z.string(),
  keeperWindowEndsAt: z.string().nullable(),
  challengeBy: z.string().nullable(),
  humanVote: z.object({ endsAt: z.string().nullable() }),
  councilReviewEndsAt: z.string().nullable(),
  nextActionDeadline: z.string().nullable(),
});

export function deadlinesOf(l: LifecycleView): z.input<typeof deadlinesSchema> {
  return {
    openTime: iso(l.openTime)!,
    closeTime: iso(l.closeTime)!,
    creatorResolveBy: iso(l.creatorResolveBy)!,
    keeperWindowEndsAt: iso(l.keeperWindowEndsAt),
    challengeBy: iso(l.challengeBy),
    humanVote: { endsAt: iso(l.vote?.endsAt) },
    councilReviewEndsAt: iso(l.councilReviewEndsAt),
    nextActionDeadline: iso(l.nextActionDeadline),
  };
}

export const lifecycleSchema = z.object({
  chainId: z.number().int(),
  marketAddress: z.string(),
  marketId: z.string(),
  settlement: z.enum(["committed", "onchain"]),
  state: z.string().describe("a MarketState, or creator_mia while the keeper window runs"),
  outcomes: z.array(z.string()),
  creator: z.string(),
  deadlines: deadlinesSchema,
  proposal: z.object({ outcome: verdictSchema, label: z.string(), at: z.string() }).nullable(),
  challenger: z.string().nullable(),
  vote: z
    .object({
      session: z.number().int(),
      openedAt: z.string(),
      endsAt: z.string(),
      quorum: z.number().int(),
      ballots: z.number().int().describe("ballots cast; each stays sealed until endsAt"),
    })
    .nullable(),
  verdict: z.object({ outcome: verdictSchema, label: z.string() }).nullable(),
  finalAt: z.string().nullable(),
  bonds: z.object({ creationBond: z.string(), creatorLocked: z.string(), challengerLocked: z.string(), symbol: z.literal("PM") }),
  voterPool: z.string(),
});

export function lifecycleOut(mw: MarketWithLifecycle): z.input<typeof lifecycleSchema> {
  const { market: m, lifecycle: l } = mw;
  return {
    chainId: m.chainId,
    marketAddress: m.address,
    marketId: l.marketId,
    settlement: m.settlement,
    state: l.state,
    outcomes: m.outcomes,
    creator: l.creator,
    deadlines: deadlinesOf(l),
    proposal: l.proposal ? { ...verdictView(l.proposal.outcome, m.outcomes), at: iso(l.proposal.at)! } : null,
    challenger: l.challenger,
    vote: l.vote
      ? { session: l.vote.session, openedAt: iso(l.vote.openedAt)!, endsAt: iso(l.vote.endsAt)!, quorum: l.vote.quorum, ballots: l.vote.ballots }
      : null,
    verdict: l.verdict === null ? null : verdictView(l.verdict, m.outcomes),
    finalAt: iso(l.finalAt),
    bonds: {
      creationBond: l.bonds.creation.toString(),
      creatorLocked: l.bonds.creator.toString(),
      challengerLocked: l.bonds.challenger.toString(),
      symbol: "PM",
    },
    voterPool: l.voterPool.toString(),
  };
}

/** Whether `account` is one of the council members the engine holds. */
export function isCouncilMember(engine: LifecycleReads, account: Address | null): boolean {
  if (account === null) return false;
  return engine.council().includes(account.toLowerCase() as Address);
}
