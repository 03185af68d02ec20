/**
 * The leaderboard pass's checkpoint (migration 394, docs/leaderboard.md "Restart"): the pass's figures after a journal
 * entry and the snapshots it took at period boundaries, as one JSON text, so a restarted service reads only the
 * journal after that entry before its first board.
 *
 * Snapshots share records with the state and with each other (copy on write, ./trading-pass.ts), so each record is
 * written once and the maps name it by its index; restored, the sharing is the same. Restored records belong to no
 * epoch, so the pass copies each one the first time it writes to it, as it does a snapshot's. The checkpoint is written
 * from snapshots, which never move, so the pass goes on while the text is written between its lines.
 */
import type { Address } from "viem";
import type { SqlRunner } from "../../../relayer/db/client";
import { ENTRY_HASH } from "../../../relayer/journal/snapshots";
import type { Season } from "./periods";
import type { MarketLife, MarketTrading, PassState, Voting } from "./trading-pass";

/** Bumped whenever the layout changes: a checkpoint of another version is not used (the journal is read instead). */
export const CHECKPOINT_VERSION = 2;

/** What the pass holds after entry `lastSeq`: its state, applied up to instant `appliedTo`, and its snapshots. */
export interface PassCheckpoint {
  lastSeq: number;
  appliedTo: number;
  state: PassState;
  snaps: Map<number, PassState>;
}

/**
 * The text is lines of JSON, each an array of items holding at most LINE_ITEMS records or map entries, so neither
 * writing nor reading it holds the event loop for more than one line: the first line names the snapshots' instants;
 * then each record once (`r`), then each state's map entries naming records by index, one item per account (`t`
 * trading, `v` voting: the account, then market and record index pairs) and per run of markets (`m`), in each map's
 * order. State 0 is the pass's own; state i + 1 the snapshot at the i-th instant. Amounts are JSON numbers when they
 * are safe integers, else decimal strings.
 */
const LINE_ITEMS = 2_000;

type Amount = number | string;
type Pairs = (string | number)[];
type Item =
  | ["r", "t", ...Amount[]]
  | ["r", "v", number, Amount, Amount, number]
  | ["r", "m", MarketLife["end"], MarketLife["proposed"], boolean, Amount, number | null]
  | ["t" | "v", number, Address, Pairs]
  | ["m", number, Pairs];

type AnyRecord = MarketTrading | Voting | MarketLife;
/** A bigint at or past 2^53 in size converts to a number at or past it, so this keeps every amount exact. */
const amount = (v: bigint): Amount => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v.toString();
};
const big = (a: Amount | undefined) => BigInt(a as Amount);

function recordItem(r: AnyRecord): Item {
  if ("shares" in r)
    return [
      "r",
      "t",
      ...[r.cash, r.volume, r.paid, r.callCash, r.callPaid, r.closedPnl, r.closedPaid, ...r.shares].map(amount),
      r.closedCalls,
      r.settled,
      r.won,
    ];
  if ("ballots" in r) return ["r", "v", r.ballots, amount(r.staked), amount(r.rewards), r.rewarded];
  return ["r", "m", r.end, r.proposed, r.challenged, amount(r.volume), r.endedAt];
}

function recordOf(item: Item): AnyRecord {
  const [, kind, ...f] = item as unknown as [string, string, ...unknown[]];
  if (kind === "t") {
    const [cash, volume, paid, callCash, callPaid, closedPnl, closedPaid, s0, s1, s2, closedCalls, settled, won] = f as Amount[];
    return {
      cash: big(cash),
      shares: [big(s0), big(s1), big(s2)],
      volume: big(volume),
      paid: big(paid),
      callCash: big(callCash),
      callPaid: big(callPaid),
      closedCalls: closedCalls as number,
      closedPnl: big(closedPnl),
      closedPaid: big(closedPaid),
      settled: settled as number,
      won: won as number,
    };
  }
  if (kind === "v") {
    const [ballots, staked, rewards, rewarded] = f as [number, Amount, Amount, number];
    return { ballots, staked: big(staked), rewards: big(rewards), rewarded };
  }
  const [end, proposed, challenged, volume, endedAt] = f as [MarketLife["end"], MarketLife["proposed"], boolean, Amount, number | null];
  return { end, proposed, challenged, volume: big(volume), endedAt };
}

const breather = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The checkpoint's text, written a line at a time (the states must not change meanwhile: snapshots never do). */
export async function encodeCheckpoint(c: Pick<PassCheckpoint, "state" | "snaps">, lineItems = LINE_ITEMS): Promise<string> {
  const states = [c.state, ...c.snaps.values()];
  const lines: string[] = [JSON.stringify([...c.snaps.keys()])];
  let items: Item[] = [];
  let weight = 0;
  /** Adds an item; true when its line is full (the caller then awaits `flush`, once a line, not once an item). */
  const add = (item: Item, w = 1) => {
    items.push(item);
    weight += w;
    return weight >= lineItems;
  };
  const flush = () => {
    lines.push(JSON.stringify(items));
    items = [];
    weight = 0;
    return breather();
  };
  const ids = new Map<object, number>();
  let seen = 0;
  for (const st of states)
    for (const inner of [...st.trading.values(), ...st.voting.values(), st.markets])
      for (const rec of inner.values()) {
        // A snapshot's records are mostly the state's, already written: visiting them takes turns too.
        if (!ids.has(rec)) {
          ids.set(rec, ids.size);
          if (add(recordItem(rec))) await flush();
        } else if (++seen % lineItems === 0) await breather();
      }
  const pairs = (m: Map<string, object>) => [...m].flatMap(([market, rec]) => [market, ids.get(rec)!]);
  for (const [i, st] of states.entries()) {
    for (const [account, m] of st.trading) if (add(["t", i, account, pairs(m)], m.size)) await flush();
    for (const [account, m] of st.voting) if (add(["v", i, account, pairs(m)], m.size)) await flush();
    const markets = pairs(st.markets);
    for (let k = 0; k < markets.length; k += 2 * lineItems) if (add(["m", i, markets.slice(k, k + 2 * lineItems)], lineItems)) await flush();
  }
  if (items.length > 0) lines.push(JSON.stringify(items));
  return lines.join("\n");
}

/** The state and snapshots of a checkpoint's text, read a line at a time; the state starts a fresh epoch. */
export async function decodeCheckpoint(text: string): Promise<Pick<PassCheckpoint, "state" | "snaps">> {
  const [head, ...rest] = text.split("\n");
  const instants = JSON.parse(head!) as number[];
  const states: PassState[] = [0, ...instants].map((_, i) => ({ epoch: i === 0 ? 0 : -1, trading: new Map(), voting: new Map(), markets: new Map() }));
  const records: AnyRecord[] = [];
  const mapOf = <V>(p: Pairs) => {
    const m = new Map<string, V>();
    for (let k = 0; k < p.length; k += 2) m.set(p[k] as string, records[p[k + 1] as number] as V);
    return m;
  };
  for (const line of rest) {
    for (const item of JSON.parse(line) as Item[]) {
      if (item[0] === "r") records.push(recordOf(item));
      else if (item[0] === "m") for (const [market, rec] of mapOf<MarketLife>(item[2])) states[item[1]]!.markets.set(market, rec);
      else if (item[0] === "t") states[item[1]]!.trading.set(item[2], mapOf<MarketTrading>(item[3]));
      else states[item[1]]!.voting.set(item[2], mapOf<Voting>(item[3]));
    }
    await breather();
  }
  return { state: states[0]!, snaps: new Map(instants.map((t, i) => [t, states[i + 1]!])) };
}

/**
 * Stores the checkpoint after committed entry `lastSeq` in place of the stored one, unless that one is newer (two
 * instances may both store theirs). False when the journal has no entry `lastSeq` or a newer checkpoint stands.
 */
export async function saveCheckpoint(
  db: SqlRunner,
  c: { lastSeq: number; appliedTo: number; season: Season; body: string; createdAt: number },
): Promise<boolean> {
  const stored = await db.query(
    `INSERT INTO leaderboard_checkpoint (id, version, last_seq, entry_hash, applied_to, season_start, season_end, body, created_at)
     SELECT 1, $2, e.seq, ${ENTRY_HASH}, $3, $4, $5, $6, $7 FROM journal_entries e WHERE e.seq = $1
     ON CONFLICT (id) DO UPDATE SET version = excluded.version, last_seq = excluded.last_seq, entry_hash = excluded.entry_hash,
       applied_to = excluded.applied_to, season_start = excluded.season_start, season_end = excluded.season_end, body = excluded.body,
       created_at = excluded.created_at
     WHERE leaderboard_checkpoint.last_seq <= excluded.last_seq
     RETURNING last_seq`,
    [c.lastSeq, CHECKPOINT_VERSION, c.appliedTo, c.season.start, c.season.end, c.body, c.createdAt],
  );
  return stored.length > 0;
}

/**
 * The stored checkpoint when it may be used for a pass up to entry `maxSeq` and instant `now`: of this version and
 * season, at or before both, and taken after the entry the journal now holds at its seq. Else null, with why.
 */
export async function usableCheckpoint(
  db: SqlRunner,
  q: { maxSeq: number; now: number; season: Season },
): Promise<{ checkpoint: PassCheckpoint | null; setAside: string | null }> {
  const [row] = await db.query<{
    version: number;
    last_seq: string;
    applied_to: string;
    season_start: string;
    season_end: string;
    body: string;
    matches: boolean | null;
  }>(
    `SELECT c.version, c.last_seq::text, c.applied_to::text, c.season_start::text, c.season_end::text, c.body, ${ENTRY_HASH} = c.entry_hash AS matches
       FROM leaderboard_checkpoint c LEFT JOIN journal_entries e ON e.seq = c.last_seq`,
  );
  if (!row) return { checkpoint: null, setAside: null };
  const lastSeq = Number(row.last_seq);
  const appliedTo = Number(row.applied_to);
  if (lastSeq > q.maxSeq || appliedTo > q.now) return { checkpoint: null, setAside: null };
  if (row.version !== CHECKPOINT_VERSION) return { checkpoint: null, setAside: `layout version ${row.version}, not ${CHECKPOINT_VERSION}` };
  if (Number(row.season_start) !== q.season.start || Number(row.season_end) !== q.season.end) return { checkpoint: null, setAside: "another season" };
  if (row.matches !== true) return { checkpoint: null, setAside: `journal entry ${lastSeq} is not the one it was taken after` };
  return { checkpoint: { lastSeq, appliedTo, ...(await decodeCheckpoint(row.body)) }, setAside: null };
}
