/**
 * An account's reputation events, from the committed journal alone (the ops `decode` replays): what it did and what
 * happened to it as a creator, a challenger, a juror and a trader of a market's end. Trades are not events here (the
 * trading profile has them); bonds, ballots, rewards, payouts and the states of the markets it created are.
 *
 * The log follows the journal (JournalFollower), keeping each account's events as rows in journal order.
 */
import type { Address } from "viem";
import type { JournalOp } from "../../../decoder/journal/ops";
import { voteEscrowOf } from "../../../decoder/assets";
import { OUTCOME_NONE } from "../../../decoder/journal/market-states";
import type { SqlRunner } from "../../../relayer/db/client";
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

const EVENT_COLUMNS = "seq::text, at::text, kind, role, account, market_id::text, amount::text, outcome, session, state";

interface EventRow {
  seq: string;
  at: string;
  kind: ReputationEventKind;
  role: ReputationRole;
  account: Address;
  market_id: string;
  amount: string | null;
  outcome: number | null;
  session: number | null;
  state: string | null;
}

const eventOf = (r: EventRow): ReputationEvent => ({
  seq: Number(r.seq),
  at: Number(r.at),
  kind: r.kind,
  role: r.role,
  account: r.account,
  marketId: BigInt(r.market_id),
  amount: r.amount === null ? null : BigInt(r.amount),
  outcome: r.outcome,
  session: r.session,
  state: r.state,
});

/**
 * The events of every account, as rows of `account_reputation_events` (migration 393) that the journal follower
 * writes. Each market's creator and challengers (`Parties`, one entry per market or challenge) stay in memory between
 * pages, and are read back from the rows when another instance moved the cursor.
 */
export class ReputationEventLog {
  #parties: Parties | null = null;

  constructor(
    private readonly db: SqlRunner,
    private readonly journal: JournalFollower,
  ) {
    journal.follow({
      prepare: async (page, resumed) => {
        if (!resumed || !this.#parties) this.#parties = await partiesFrom(db);
        const parties = this.#parties;
        const events = page.flatMap((e) => eventsOfEntry(parties, e.seq, e.at, e.ops).map((ev, idx) => ({ ev, idx })));
        return (tx) => insertEvents(tx, events);
      },
    });
  }

  /**
   * Events of `accounts` (merged, newest first: by journal entry, and inside one entry the last first), `offset` then
   * at most `limit` of them, and how many there are. The journal is projected up to now first.
   */
  async eventsOf(accounts: readonly string[], page: { limit: number; offset: number }): Promise<{ events: ReputationEvent[]; total: number }> {
    await this.journal.catchUp();
    const list = [...new Set(accounts.map((a) => a.toLowerCase()))];
    const [rows, [count]] = await Promise.all([
      this.db.query<EventRow>(
        // Qualified: a bare `seq` would name the text column of the select list and order as text.
        `SELECT ${EVENT_COLUMNS} FROM account_reputation_events e WHERE account = ANY($1::text[]) ORDER BY e.seq DESC, e.idx DESC LIMIT $2 OFFSET $3`,
        [list, page.limit, page.offset],
      ),
      this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM account_reputation_events WHERE account = ANY($1::text[])`, [list]),
    ]);
    return { events: rows.map(eventOf), total: count!.n };
  }
}

/** Every market's creator and challengers, from the events that named them. */
async function partiesFrom(db: SqlRunner): Promise<Parties> {
  const parties: Parties = { creators: new Map(), challengers: new Map() };
  const rows = await db.query<{ market_id: string; account: Address; kind: ReputationEventKind }>(
    `SELECT market_id::text, account, kind FROM account_reputation_events e WHERE kind IN ('market_created', 'challenge_bond_locked') ORDER BY e.seq, e.idx`,
  );
  for (const r of rows) {
    const m = BigInt(r.market_id);
    if (r.kind === "market_created") parties.creators.set(m, r.account);
    else parties.challengers.set(m, (parties.challengers.get(m) ?? new Set()).add(r.account));
  }
  return parties;
}

/** A page's events; `idx` numbers them inside their entry. */
async function insertEvents(tx: SqlRunner, events: { ev: ReputationEvent; idx: number }[]): Promise<void> {
  if (events.length === 0) return;
  const records = events.map(({ ev, idx }) => ({
    seq: ev.seq,
    idx,
    at: ev.at,
    account: ev.account,
    kind: ev.kind,
    role: ev.role,
    market_id: ev.marketId.toString(),
    amount: ev.amount?.toString() ?? null,
    outcome: ev.outcome,
    session: ev.session,
    state: ev.state,
  }));
  await tx.query(
    `INSERT INTO account_reputation_events (seq, idx, at, account, kind, role, market_id, amount, outcome, session, state)
     SELECT seq, idx, at, account, kind, role, market_id, amount, outcome, session, state FROM json_to_recordset($1::text::json)
         AS x(seq bigint, idx integer, at bigint, account text, kind text, role text, market_id numeric, amount numeric, outcome smallint,
              session integer, state text)`,
    [JSON.stringify(records)],
  );
}
