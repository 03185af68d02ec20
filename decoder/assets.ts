/**
 * Asset ids and well-known accounts of the committed ledger (see the ledger conventions).
 * Asset 0 is the play-money collateral; `(marketId << 8) | side` is outcome `side` (0..2) of market `marketId`.
 */
import { encodePacked, hexToBytes, type Address } from "viem";
import { keccak256Of } from "./merkle/keccak";

/** Asset id of the play-money (PM) collateral. */
export const COLLATERAL_ASSET = 0n;

/** The supply account (zero address): the only account that may go negative; excluded from the root. */
export const SUPPLY_ACCOUNT: Address = "0x0000000000000000000000000000000000000000";

/** Outcome side of a binary market (order-book matches are binary). */
export type Side = 0 | 1;

/**
 * Most outcomes a market has (ternary LMSR markets, on-chain lane only); outcome indexes are 0..MAX_OUTCOMES-1. A
 * lifecycle record (MARKET_STATE, BALLOT_REVEAL) may name outcome 2 of an on-chain ternary market.
 */
export const MAX_OUTCOMES = 3;
/** The committed ledger is binary (spec: "side is 0 or 1"): an outcome asset id, a trade, a payout name side 0 or 1. */
export const LEDGER_SIDES = 2;
/** Outcome index of a market with up to MAX_OUTCOMES outcomes (a Side is one). */
export type OutcomeIndex = 0 | 1 | 2;

/** Whether `x` is an outcome index of a market with `outcomes` outcomes (default: of any committed market). */
export function isOutcomeIndex(x: unknown, outcomes: number = MAX_OUTCOMES): x is OutcomeIndex {
  return typeof x === "number" && Number.isInteger(x) && x >= 0 && x < outcomes && x < MAX_OUTCOMES;
}

/** Largest market id: ids are uint64 in the match tuple. */
export const MAX_MARKET_ID = (1n << 64n) - 1n;

/** Asset id of outcome `side` (0..MAX_OUTCOMES-1) of market `marketId`. */
export function outcomeAssetId(marketId: bigint, side: OutcomeIndex): bigint {
  return (marketId << 8n) | BigInt(side);
}

/** Splits an outcome asset id into market and side; null for the collateral or an id that is not a ledger side (0 or 1). */
export function parseOutcomeAssetId(assetId: bigint): { marketId: bigint; side: OutcomeIndex } | null {
  const side = assetId & 0xffn;
  const marketId = assetId >> 8n;
  if (marketId < 1n || marketId > MAX_MARKET_ID || side >= BigInt(LEDGER_SIDES)) return null;
  return { marketId, side: Number(side) as OutcomeIndex };
}

/** Lower-cases an address: the ledger orders and stores accounts by their lower-case hex form. */
export function normalizeAccount(account: string): Address {
  return account.toLowerCase() as Address;
}

/** Derived accounts already computed, per label then market id: every movement of a pool, escrow or payout op names one. */
const derived = new Map<string, Map<bigint, Address>>();
const DERIVED_CACHE_MAX = 4096;

function derivedAccount(label: string, marketId: bigint): Address {
  let byMarket = derived.get(label);
  if (byMarket === undefined) derived.set(label, (byMarket = new Map()));
  const hit = byMarket.get(marketId);
  if (hit !== undefined) return hit;
  const hash = keccak256Of(hexToBytes(encodePacked(["string", "uint64"], [label, marketId])));
  const account = `0x${hash.slice(-40)}` as Address;
  // Bounded: a long-running service sees ever new markets; dropping the lot now and then only costs a re-hash.
  if (byMarket.size >= DERIVED_CACHE_MAX) byMarket.clear();
  byMarket.set(marketId, account);
  return account;
}

/**
 * The LMSR pool account of a market: the last 20 bytes of keccak256(abi.encodePacked("PMJ5/pool", uint64 marketId)).
 * Nobody holds its key; it only exists as a ledger account.
 */
export function poolAccountOf(marketId: bigint): Address {
  return derivedAccount("PMJ5/pool", marketId);
}

/** The bond escrow account of a market: last 20 bytes of keccak256(abi.encodePacked("PMJ5/bond", uint64 marketId)). */
export function bondEscrowOf(marketId: bigint): Address {
  return derivedAccount("PMJ5/bond", marketId);
}

/**
 * The vote escrow account of a market (stakes of its ballots and the voter pool):
 * last 20 bytes of keccak256(abi.encodePacked("PMJ5/vote", uint64 marketId)).
 */
export function voteEscrowOf(marketId: bigint): Address {
  return derivedAccount("PMJ5/vote", marketId);
}
