/**
 * Bond arithmetic (bigint PM units only): the creation bond, the slash of a missing creator's bond, and the bond
 * flows at finality (unchallenged, challenger right, challenger wrong, neutral void). Each function returns the
 * transfers that empty what it is given; the voters' side is vote-settlement.ts. docs/resolution.md has a worked
 * example of each, recomputed by resolution-doc.test.ts.
 */
import type { Address } from "viem";
import { bpsOf, CHALLENGE_SPLIT, CREATOR_BOND, MIA_SLASH_SPLIT } from "./rules";
import { nonZero, type BondAward, type BondReturn, type BondSlash, type Transfer } from "./transfers";

/**
 * The creation bond in PM units: clamp(seed × ratioOfSeed, min, max) with the product rounded down; `null` (an
 * ORDERBOOK market, which has no seed) pays the minimum. An on-chain market's seed counts 1:1 in PM units.
 */
export function creationBond(seed: bigint | null): bigint {
  if (seed === null) return CREATOR_BOND.minUnits;
  const ratio = bpsOf(seed, CREATOR_BOND.ratioOfSeedBps);
  if (ratio < CREATOR_BOND.minUnits) return CREATOR_BOND.minUnits;
  return ratio > CREATOR_BOND.maxUnits ? CREATOR_BOND.maxUnits : ratio;
}

export interface MiaSlashInput {
  creator: Address;
  /** The creation bond B, all of it still in the bond escrow. */
  bond: bigint;
  /** The agent that declared the miss, or null when the clock opened the vote after the keeper window. */
  keeper: Address | null;
}

/**
 * The slash of a missing creator's bond when the vote opens: the keeper gets min(B × keeperBps, cap), the treasury
 * B × treasuryBps, the voter pool the remainder (rounding included). Without a keeper its share stays in the pool.
 */
export function miaSlash({ creator, bond, keeper }: MiaSlashInput): Transfer[] {
  const uncapped = bpsOf(bond, MIA_SLASH_SPLIT.keeperBps);
  const keeperShare = keeper === null ? 0n : uncapped < MIA_SLASH_SPLIT.keeperCapUnits ? uncapped : MIA_SLASH_SPLIT.keeperCapUnits;
  const treasury = bpsOf(bond, MIA_SLASH_SPLIT.treasuryBps);
  return nonZero([
    keeper === null ? null : award(creator, keeper, keeperShare),
    slash(creator, treasury),
    award(creator, "vote_escrow", bond - keeperShare - treasury),
  ]);
}

export interface ChallengedBonds {
  creator: Address;
  challenger: Address;
  /** The creation bond B; the challenger posted the same amount, so the escrow holds 2B. */
  bond: bigint;
}

/** Unchallenged proposal (or a market cancelled before any proposal): the creation bond goes back in full. */
export function unchallengedBondFlows(creator: Address, bond: bigint): Transfer[] {
  return nonZero([bondReturn(creator, bond)]);
}

/**
 * The final verdict differs from the proposal (a council void of an outcome proposal included): the challenger's
 * bond returns, the creator's is split (winner share to the challenger, voter-pool share, the rest to the treasury).
 */
export function challengerRightFlows({ creator, challenger, bond }: ChallengedBonds): Transfer[] {
  return nonZero([bondReturn(challenger, bond), ...splitLosingBond(creator, challenger, bond)]);
}

/** The final verdict is the proposal: the creator's bond returns, the challenger's is split with the creator winning. */
export function challengerWrongFlows({ creator, challenger, bond }: ChallengedBonds): Transfer[] {
  return nonZero([bondReturn(creator, bond), ...splitLosingBond(challenger, creator, bond)]);
}

/** Neutral void (the council silent and no unique vote result): nobody was proven wrong, both bonds return. */
export function neutralVoidFlows({ creator, challenger, bond }: ChallengedBonds): Transfer[] {
  return nonZero([bondReturn(creator, bond), bondReturn(challenger, bond)]);
}

/** The losing bond: winnerBps to the winner, voterPoolBps to the vote escrow, the treasury the rest (its share and the dust). */
function splitLosingBond(loser: Address, winner: Address, bond: bigint): Transfer[] {
  const toWinner = bpsOf(bond, CHALLENGE_SPLIT.winnerBps);
  const toVoters = bpsOf(bond, CHALLENGE_SPLIT.voterPoolBps);
  return [award(loser, winner, toWinner), slash(loser, bond - toWinner - toVoters), award(loser, "vote_escrow", toVoters)];
}

function bondReturn(account: Address, amount: bigint): BondReturn {
  return { op: "BOND_RETURN", from: "bond_escrow", to: account, bondOf: account, amount };
}

function award(bondOf: Address, to: Address | "vote_escrow", amount: bigint): BondAward {
  return { op: "BOND_AWARD", from: "bond_escrow", to, bondOf, amount };
}

function slash(bondOf: Address, amount: bigint): BondSlash {
  return { op: "BOND_SLASH", from: "bond_escrow", to: "treasury", bondOf, amount };
}
