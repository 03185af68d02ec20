/**
 * The ballot check of replay: every BALLOT_REVEAL must open the commitment (`ballotHash`) of the STAKE_LOCK of the
 * same market, session and voter (docs/lifecycle.md, "Ballots"). A lock and its reveal are days apart, in different
 * batches, so the pending commitments are carried from batch to batch ({@link BallotBook}).
 *
 * What is carried is small: one entry per ballot locked and not yet revealed, i.e. the ballots of the sessions still
 * open. A reveal removes its entry, and a market's terminal MARKET_STATE (resolved, void) removes what is left of it,
 * reporting each such ballot as never revealed.
 */
import type { Address, Hex } from "viem";
import { ballotHashOf } from "../journal/ballot";
import { TERMINAL_MARKET_STATES } from "../journal/market-states";
import type { JournalOp } from "../journal/ops";

/**
 * Codes of a failed ballot check:
 * - `BALLOT_MISMATCH`: the reveal's outcome and salt do not hash to the lock's `ballotHash` (the ballot was changed);
 * - `BALLOT_NO_LOCK`: a reveal without a pending STAKE_LOCK of that market, session and voter (never locked, or
 *   revealed already);
 * - `BALLOT_DUPLICATE_LOCK`: a second STAKE_LOCK of the same market, session and voter before the first was revealed
 *   (one ballot per voter per session);
 * - `BALLOT_UNREVEALED`: the market reached a terminal state with a locked ballot never revealed.
 */
export type BallotFailureCode = "BALLOT_MISMATCH" | "BALLOT_NO_LOCK" | "BALLOT_DUPLICATE_LOCK" | "BALLOT_UNREVEALED";

/** One failed ballot check: where (the op's index within its batch), what, and whose ballot. */
export interface BallotFailure {
  readonly index: number;
  readonly code: BallotFailureCode;
  readonly marketId: bigint;
  readonly session: number;
  readonly account: Address;
  readonly message: string;
}

/** What one batch's ballot check found. */
export interface BallotCheck {
  /** Reveals that matched their commitment. */
  readonly revealsChecked: number;
  readonly failures: BallotFailure[];
}

const keyOf = (session: number, account: Address): string => `${session}/${account.toLowerCase()}`;

/** The commitments of the ballots locked and not yet revealed, per market. Mutated by {@link BallotBook.check}. */
export class BallotBook {
  readonly #pending = new Map<bigint, Map<string, { session: number; account: Address; ballotHash: Hex }>>();

  /** Ballots locked and not yet revealed. */
  get size(): number {
    let n = 0;
    for (const m of this.#pending.values()) n += m.size;
    return n;
  }

  /** Checks a batch's ballot ops in order, recording its locks and consuming its reveals. */
  check(ops: readonly JournalOp[]): BallotCheck {
    const failures: BallotFailure[] = [];
    const fail = (index: number, code: BallotFailureCode, ballot: { marketId: bigint; session: number; account: Address }, message: string) =>
      failures.push({ index, code, marketId: ballot.marketId, session: ballot.session, account: ballot.account, message });
    let revealsChecked = 0;
    for (const [index, op] of ops.entries()) {
      const where = "session" in op ? `market ${op.marketId} session ${op.session} voter ${op.account}` : "";
      if (op.type === "STAKE_LOCK") {
        const market = this.#market(op.marketId);
        const key = keyOf(op.session, op.account);
        if (market.has(key)) fail(index, "BALLOT_DUPLICATE_LOCK", op, `${where}: a second ballot locked before the first was revealed`);
        market.set(key, { session: op.session, account: op.account, ballotHash: op.ballotHash });
      } else if (op.type === "BALLOT_REVEAL") {
        const market = this.#pending.get(op.marketId);
        const key = keyOf(op.session, op.account);
        const lock = market?.get(key);
        if (!market || !lock) {
          fail(index, "BALLOT_NO_LOCK", op, `${where}: reveal without a pending STAKE_LOCK`);
          continue;
        }
        market.delete(key);
        if (market.size === 0) this.#pending.delete(op.marketId);
        const revealed = ballotHashOf(op);
        if (revealed === lock.ballotHash.toLowerCase()) revealsChecked++;
        else fail(index, "BALLOT_MISMATCH", op, `${where}: outcome ${op.outcome} and its salt hash to ${revealed}, the lock committed to ${lock.ballotHash}`);
      } else if (op.type === "MARKET_STATE" && TERMINAL_MARKET_STATES.includes(op.state)) {
        for (const lock of this.#pending.get(op.marketId)?.values() ?? []) {
          fail(
            index,
            "BALLOT_UNREVEALED",
            { marketId: op.marketId, ...lock },
            `market ${op.marketId} became ${op.state} with the ballot of ${lock.account} in session ${lock.session} never revealed`,
          );
        }
        this.#pending.delete(op.marketId);
      }
    }
    return { revealsChecked, failures };
  }

  #market(marketId: bigint): Map<string, { session: number; account: Address; ballotHash: Hex }> {
    let market = this.#pending.get(marketId);
    if (!market) this.#pending.set(marketId, (market = new Map()));
    return market;
  }
}
