/**
 * The server's terms of a market (POST /negotiate/propose): everything the creator commits to and the service will
 * stamp, as JSON (amounts as integer strings, instants as RFC 3339), and their hash. The hash binds the on-chain
 * creation to this negotiation: the factory emits it in MarketCreated and commit-deploy compares it.
 */
import { stringToBytes } from "viem";
import { keccak256Of } from "../../../decoder/merkle/keccak";
import { CREATOR_BOND, PM_UNIT, WINDOWS } from "../../../relayer/lifecycle/rules";
import { creatorResolveBy } from "../../../relayer/lifecycle/deadlines";
import { canonicalJson } from "../../platform/hashing/canonical-json";
import type { FactoryFees } from "./factory-fees";
import type { CreationPlan } from "./preflight";

/** Terms must be accepted within this long of the proposal. */
export const ACCEPT_WINDOW_MS = 15 * 60_000;
/** Accepted terms must be deployed within this long of acceptance (their reservation then lapses). */
export const DEPLOY_WINDOW_MS = 30 * 60_000;

const iso = (ms: number) => new Date(ms).toISOString();
const S = 1000;

export interface TermsInput {
  negotiationId: string;
  chainId: number;
  creator: string;
  externalId: string;
  plan: CreationPlan;
  fees: FactoryFees;
  proposedAt: number;
}

export function buildTerms(t: TermsInput) {
  const p = t.plan;
  const lmsr = p.pricing === "LMSR";
  const factoryLmsr = p.outcomes.length === 3 ? t.fees.lmsrTernary : t.fees.lmsr;
  const fees = lmsr
    ? {
        feePolicyVersion: "notional-v1" as const,
        takerFeeBps: 0,
        buyFeeBps: 0,
        sellExitFeeBps: factoryLmsr.sellExitFeeBps,
        winningsExitFeeBps: factoryLmsr.winningsExitFeeBps,
      }
    : {
        feePolicyVersion: t.fees.orderbook.feePolicyVersion,
        takerFeeBps: t.fees.orderbook.routerTakerFeeBps,
        buyFeeBps: 0,
        sellExitFeeBps: 0,
        winningsExitFeeBps: t.fees.orderbook.winningsExitFeeBps,
      };
  const resolveBy = creatorResolveBy(p.closeTime);
  const latestChallengeBy = resolveBy + WINDOWS.challengeSeconds * S;
  const latestVoteEnds = latestChallengeBy + WINDOWS.humanVoteWindowSeconds * S;
  const pmLock = p.bond + (p.lane === "committed" && p.seed !== null ? p.seed : 0n);
  return {
    version: "terms-v1" as const,
    negotiationId: t.negotiationId,
    chainId: t.chainId,
    lane: p.lane,
    creator: t.creator,
    externalId: t.externalId,
    title: p.title,
    description: p.description,
    category: p.category,
    outcomes: p.outcomes,
    pricingModel: p.pricingModel,
    collateral: { symbol: p.collateral.symbol, token: p.collateral.token, decimals: p.collateral.decimals },
    seed: p.seed === null ? null : p.seed.toString(),
    fees: {
      ...fees,
      source: lmsr ? (t.fees.source.lmsrFactory ? "lmsr-factory" : "venue-defaults") : t.fees.source.orderbookFactory ? "orderbook-factory" : "venue-defaults",
      readAtBlock: t.fees.source.blockNumber,
    },
    bond: {
      amount: p.bond.toString(),
      symbol: "PM" as const,
      rule: {
        ratioOfSeed: CREATOR_BOND.ratioOfSeedBps / 10_000,
        minProtocolToken: Number(CREATOR_BOND.minUnits / PM_UNIT),
        maxProtocolToken: Number(CREATOR_BOND.maxUnits / PM_UNIT),
      },
    },
    /** What commit-deploy locks: PM on the committed ledger (bond, and the seed on the committed lane); the on-chain seed is pulled by the factory. */
    lock: { pm: pmLock.toString(), collateral: p.lane === "onchain" && p.seed !== null ? p.seed.toString() : "0" },
    deadlines: {
      openTime: "the instant of commit-deploy",
      closeTime: iso(p.closeTime),
      creatorResolveBy: iso(resolveBy),
      challengeWindowSeconds: WINDOWS.challengeSeconds,
      challengeBy: "proposal time + challengeWindowSeconds",
      latestChallengeBy: iso(latestChallengeBy),
      humanVoteWindowSeconds: WINDOWS.humanVoteWindowSeconds,
      latestHumanVoteEndsAt: iso(latestVoteEnds),
      councilReviewSeconds: WINDOWS.councilReviewSeconds,
      latestCouncilReviewEndsAt: iso(latestVoteEnds + WINDOWS.councilReviewSeconds * S),
    },
    resolutionSource: p.resolutionSource,
    expiresAt: iso(t.proposedAt + ACCEPT_WINDOW_MS),
    deployWindowSeconds: DEPLOY_WINDOW_MS / S,
  };
}
export type MarketTerms = ReturnType<typeof buildTerms>;

/** keccak256 of the canonical JSON of the terms (0x + 64 hex). */
export function termsHashOf(terms: MarketTerms): `0x${string}` {
  return keccak256Of(stringToBytes(canonicalJson(terms)));
}
