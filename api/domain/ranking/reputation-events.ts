/**
 * An account's reputation events, from the committed journal alone (the ops `decode` replays): what it did and what
 * happened to it as a creator, a challenger, a juror and a trader of a market's end. Trades are not events here (the
 * trading profile has them); bonds, ballots, rewards, payouts and the states of the markets it created are.
 *
 * The log follows the journal (JournalFollower), keeping each account's events in memory in journal order.
 */
import type { Address } from "viem";
import type { JournalOp } from "../../../decoder/journal/ops";
import { voteEscrowOf } from "../../../decoder/assets";
import { OUTCOME_NONE } from "../../../decoder/journal/market-states";
import type { JournalFollower } from "../ledger/journal-follower";

export const REPUTATION_EVENT_KINDS = [
  "market_created",
  "market_state",
  "challenge_bond_locked",
  "bond_returned",
  "bond_slashed",
  "bond_awarded",
  "ballot_cast",
  "ballot_revealed",
  "stake_returned",
  "vote_rewarded",
  "payout",
  "refund",
] as const;
export type ReputationEventKind = (typeof REPUTATION_EVENT_KINDS)[number];
export const REPUTATION_ROLES = ["creator", "challenger", "juror", "trader"] as const;
export type ReputationRole = (typeof REPUTATION_ROLES)[number];

export interface ReputationEvent {
  /** The journal entry that carried it. */
  seq: number;
  at: number;
  kind: ReputationEventKind;
  role: ReputationRole;
  account: Address;
  marketId: bigint;
  /** PM base units moved, when the event moved any. */
  amount: bigint | null;
  /** The outcome the event names (a ballot's, a payout's side, a state's), else null. */
  outcome: number | null;
  session: number | null;
  /** For `market_state`: the state the market entered. */
  state: string | null;
}

/** Who holds which part in each market, as the journal tells it: its creator (the first bond) and its challengers. */
export interface Parties {
  creators: Map<bigint, Address>;
  challengers: Map<bigint, Set<Address>>;
}

/** States of a created market that count for its creator's reputation (the ones between are steps of the same act). */
const CREATOR_STATES = new Set(["creator_proposal", "challenge", "creator_mia", "resolved", "void"]);

const lower = (a: Address) => a.toLowerCase() as Address;

/** The reputation events of one journal entry; `parties` learns each market's creator and challengers as it goes. */
export function eventsOfEntry(parties: Parties, seq: number, at: number, ops: readonly JournalOp[]): ReputationEvent[] {
  const out: ReputationEvent[] = [];
  const add = (kind: ReputationEventKind, role: ReputationRole, account: Address, marketId: bigint, more: Partial<ReputationEvent> = {}) =>
    out.push({ seq, at, kind, role, account: lower(account), marketId, amount: null, outcome: null, session: null, state: null, ...more });
  const roleOf = (marketId: bigint, account: Address): ReputationRole =>
    parties.creators.get(marketId) === lower(account) ? "creator" : parties.challengers.get(marketId)?.has(lower(account)) ? "challenger" : "trader";
  for (const op of ops) {
    switch (op.type) {
      case "BOND_LOCK": {
        if (!parties.creators.has(op.marketId)) {
          parties.creators.set(op.marketId, lower(op.account));
          add("market_created", "creator", op.account, op.marketId, { amount: op.amount });
        } else {
          const set = parties.challengers.get(op.marketId) ?? new Set<Address>();
          set.add(lower(op.account));
          parties.challengers.set(op.marketId, set);
          add("challenge_bond_locked", "challenger", op.account, op.marketId, { amount: op.amount });
        }
        break;
      }
      case "MARKET_STATE": {
        if (!CREATOR_STATES.has(op.state)) break;
        const outcome = op.outcome === OUTCOME_NONE ? null : op.outcome;
        const creator = parties.creators.get(op.marketId);
        if (creator) add("market_state", "creator", creator, op.marketId, { state: op.state, outcome });
        if (op.state === "resolved" || op.state === "void")
          for (const c of parties.challengers.get(op.marketId) ?? []) add("market_state", "challenger", c, op.marketId, { state: op.state, outcome });
        break;
      }
      case "BOND_RETURN":
        add("bond_returned", roleOf(op.marketId, op.account), op.account, op.marketId, { amount: op.amount });
        break;
      case "BOND_SLASH":
        add("bond_slashed", roleOf(op.marketId, op.account), op.account, op.marketId, { amount: op.amount });
        break;
      case "BOND_AWARD":
        // Awards to the vote escrow are the voters' pool, paid out as VOTE_REWARD; the rest reach an account.
        if (lower(op.recipient) !== lower(voteEscrowOf(op.marketId)))
          add("bond_awarded", roleOf(op.marketId, op.recipient), op.recipient, op.marketId, { amount: op.amount });
        break;
      case "STAKE_LOCK":
        add("ballot_cast", "juror", op.account, op.marketId, { amount: op.amount, session: op.session });
        break;
      case "BALLOT_REVEAL":
        add("ballot_revealed", "juror", op.account, op.marketId, { outcome: op.outcome, session: op.session });
        break;
      case "STAKE_RETURN":
        add("stake_returned", "juror", op.account, op.marketId, { amount: op.amount, session: op.session });
        break;
      case "VOTE_REWARD":
        add("vote_rewarded", "juror", op.account, op.marketId, { amount: op.amount, session: op.session });
        break;
      case "RESOLUTION_PAYOUT":
        add("payout", "trader", op.account, op.marketId, { amount: op.payout, outcome: op.side });
        break;
      case "VOID_REFUND":
        add("refund", "trader", op.account, op.marketId, { amount: op.refund, outcome: op.side });
        break;
      default:
        break;
    }
  }
  return out;
}

/** The events of every account, kept up to date with the journal on each read. */
export class ReputationEventLog {
  readonly #byAccount = new Map<Address, ReputationEvent[]>();
  readonly #parties: Parties = { creators: new Map(), challengers: new Map() };
  readonly #journal: JournalFollower;

  constructor(journal: JournalFollower) {
    this.#journal = journal.follow((seq, at, ops) => {
      for (const ev of eventsOfEntry(this.#parties, seq, at, ops)) {
        const list = this.#byAccount.get(ev.account) ?? [];
        list.push(ev);
        this.#byAccount.set(ev.account, list);
      }
    });
  }

  /**
   * Events of `accounts` (merged, newest first), `offset` then at most `limit` of them, and how many there are. The
   * journal is read up to now first.
   */
  async eventsOf(accounts: readonly string[], page: { limit: number; offset: number }): Promise<{ events: ReputationEvent[]; total: number }> {
    await this.#journal.catchUp();
    // Each account's events are in journal order; a stable sort by entry keeps that order inside an entry.
    const all = [...new Set(accounts.map((a) => a.toLowerCase() as Address))]
      .flatMap((a) => this.#byAccount.get(a) ?? [])
      .sort((x, y) => x.seq - y.seq)
      .reverse();
    return { events: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }
}
