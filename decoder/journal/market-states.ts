/**
 * Market states of the lifecycle (docs/lifecycle.md) as MARKET_STATE carries them: a `u8` code on the wire, the
 * state's name in the typed operation. The code of a state is its index in {@link MARKET_STATES}; codes never change
 * meaning (a new state takes the next free code).
 */
import type { OutcomeIndex } from "../assets";

/** State names in code order: `MARKET_STATES[code]` is the state of that code. */
export const MARKET_STATES = ["open", "closed", "creator_proposal", "challenge", "creator_mia", "human_voting", "council_review", "resolved", "void"] as const;

/** A market state's name. */
export type MarketStateName = (typeof MARKET_STATES)[number];

/** Code of each state name (`MarketStateCode.resolved === 7`). */
export const MarketStateCode = Object.freeze(Object.fromEntries(MARKET_STATES.map((name, code) => [name, code]))) as {
  readonly [K in MarketStateName]: number;
};

/** The `outcome` value meaning "no outcome" (a state without one, a void, a proposal of void). */
export const OUTCOME_NONE = 255;
/** The outcome field of MARKET_STATE: an outcome index or {@link OUTCOME_NONE}. */
export type OutcomeOrNone = OutcomeIndex | typeof OUTCOME_NONE;

/** Terminal states: nothing follows them. */
export const TERMINAL_MARKET_STATES: readonly MarketStateName[] = ["resolved", "void"];

/** The state of `code`, or undefined for a code no state has. */
export function marketStateOfCode(code: number): MarketStateName | undefined {
  return MARKET_STATES[code];
}

/** Whether `x` is a market state's name. */
export function isMarketStateName(x: unknown): x is MarketStateName {
  return typeof x === "string" && (MARKET_STATES as readonly string[]).includes(x);
}

/**
 * Why a MARKET_STATE's outcome (already in 0..MAX_OUTCOMES-1 or {@link OUTCOME_NONE}) does not fit its state, or
 * null when it does: `resolved` names an outcome, `void` names none; other states may carry either (a proposal names
 * the proposed outcome, or none for a proposal of void).
 */
export function marketStateOutcomeError(state: MarketStateName, outcome: number): string | null {
  if (state === "resolved" && outcome === OUTCOME_NONE) return "a resolved market names its outcome";
  if (state === "void" && outcome !== OUTCOME_NONE) return `a void market has no outcome (${OUTCOME_NONE}), not ${outcome}`;
  return null;
}
