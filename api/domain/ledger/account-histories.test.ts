/**
 * The account histories as rows (migration 393) against the same histories kept in memory from the same journal: a
 * random journal of fills, LMSR trades and markets' lives, projected in small pages by a sequence of instances (each
 * start a new follower resuming at the cursor, as a restart or a second instance does). After each instance, every
 * account's cash-flow pages, reputation events and trading days must equal what one pass over the whole journal in
 * memory gives.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import type { JournalOp } from "../../../decoder";
import { OUTCOME_NONE } from "../../../decoder/journal/market-states";
import type { Database } from "../../../relayer/db/client";
import { JournalWriter, opsToJson } from "../../../relayer/journal";
import { openTestDatabase } from "../../../test/support/db";
import { type CashFlow, CashFlowLog, cashFlowsOf } from "../ranking/cash-flows";
import { eventsOfEntry, type Parties, type ReputationEvent, ReputationEventLog } from "../ranking/reputation-events";
import { dayOf } from "../release/program";
import { TradeDayLog, tradingAccountsOf } from "../release/trade-days";
import { JournalFollower } from "./journal-follower";

const SEED = Number(process.env.HISTORIES_SEED ?? 20261207);
const ACCOUNTS = ["a1", "a2", "a3", "a4"].map((s) => `0x${s.padStart(40, "0")}` as Address);
const MARKETS = [1n, 2n, 3n];
const DAY = 86_400_000;

/** mulberry32: a small seeded generator, so a failure names the seed that reproduces it. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { int, side: () => int(2) as 0 | 1, pick: <T>(xs: readonly T[]) => xs[int(xs.length)]!, big: (n: number) => BigInt(1 + int(n)) };
}

function randomOp(r: ReturnType<typeof random>): JournalOp {
  const account = r.pick(ACCOUNTS);
  const marketId = r.pick(MARKETS);
  switch (r.int(9)) {
    case 0:
    case 1:
    case 2:
      return {
        type: "MATCH",
        maker: account,
        taker: r.pick(ACCOUNTS),
        marketId,
        side: r.side(),
        kind: r.int(4) as 0 | 1 | 2 | 3,
        shares: r.big(500),
        priceBps: 1 + r.int(9_999),
        fee: BigInt(r.int(5)),
      };
    case 3:
      return {
        type: "LMSR_TRADE",
        account,
        marketId,
        side: r.side(),
        direction: r.int(2) ? "BUY" : "SELL",
        shares: r.big(300),
        collateral: r.big(200),
        fee: BigInt(r.int(3)),
      };
    case 4:
      return { type: "BOND_LOCK", marketId, account, amount: r.big(100) };
    case 5:
      return {
        type: "MARKET_STATE",
        marketId,
        state: r.pick(["creator_proposal", "challenge", "resolved", "void", "closed"]),
        outcome: r.int(2) ? OUTCOME_NONE : r.side(),
      };
    case 6:
      return { type: "RESOLUTION_PAYOUT", marketId, account, side: r.side(), shares: r.big(100), payout: r.big(100), source: "POOL" };
    case 7:
      return { type: "VOID_REFUND", marketId, account, side: r.side(), shares: r.big(100), refund: r.big(100), source: "SUPPLY" };
    default:
      return r.int(2)
        ? { type: "BOND_RETURN", marketId, account, amount: r.big(50) }
        : { type: "STAKE_LOCK", marketId, session: 1, account, amount: r.big(20), ballotHash: `0x${"11".repeat(32)}` };
  }
}

/** The three histories in memory, as the service kept them before they became rows. */
class InMemory {
  readonly flows = new Map<string, CashFlow[]>();
  readonly events = new Map<string, ReputationEvent[]>();
  readonly days = new Map<string, { days: Set<number>; lastAt: number }>();
  readonly #parties: Parties = { creators: new Map(), challengers: new Map() };

  apply(seq: number, at: number, ops: JournalOp[]): void {
    for (const op of ops)
      for (const { account, flow } of cashFlowsOf(seq, at, op)) {
        const list = this.flows.get(account) ?? [];
        list.push({ ...flow, cumulative: (list.at(-1)?.cumulative ?? 0n) + flow.cashFlow });
        this.flows.set(account, list);
      }
    for (const ev of eventsOfEntry(this.#parties, seq, at, ops)) this.events.set(ev.account, [...(this.events.get(ev.account) ?? []), ev]);
    for (const account of tradingAccountsOf(ops)) {
      const r = this.days.get(account) ?? { days: new Set<number>(), lastAt: 0 };
      r.days.add(dayOf(at));
      r.lastAt = Math.max(r.lastAt, at);
      this.days.set(account, r);
    }
  }
}

describe("account histories (rows projected from the journal)", () => {
  let db: Database;
  let writer: JournalWriter;

  before(async () => {
    db = await openTestDatabase();
    writer = await JournalWriter.open(db);
  });
  after(async () => {
    await db.close();
  });

  it(`equal the histories kept in memory, across pages and instances (seed ${SEED})`, async () => {
    const r = random(SEED);
    const memory = new InMemory();
    let seq = 0;
    let at = Date.UTC(2026, 10, 1);
    for (let instance = 0; instance < 4; instance++) {
      for (let i = 0, n = 40 + r.int(80); i < n; i++) {
        at += r.int(4) === 0 ? DAY : r.int(60_000);
        const ops = Array.from({ length: 1 + r.int(3) }, () => randomOp(r));
        seq = await writer.append({ at, command: "{}", ops: opsToJson(ops), opCount: ops.length, reports: [] });
        memory.apply(seq, at, ops);
      }
      // A new instance: it resumes at the cursor the previous one left, with nothing in memory.
      const follower = new JournalFollower(db, undefined, 1 + r.int(25));
      const cashFlows = new CashFlowLog(db, follower);
      const events = new ReputationEventLog(db, follower);
      const tradeDays = new TradeDayLog(db, follower);
      const limit = 1 + r.int(7);
      for (const account of ACCOUNTS) {
        const want = memory.flows.get(account) ?? [];
        const got: CashFlow[] = [];
        let before: number | null = null;
        let page: Awaited<ReturnType<CashFlowLog["page"]>>;
        do {
          page = await cashFlows.page(account.toUpperCase().replace("0X", "0x"), before, limit);
          assert.deepEqual([page.total, page.net], [want.length, want.at(-1)?.cumulative ?? 0n], `${account}: total and net`);
          got.push(...page.flows);
          before = page.next;
        } while (before !== null);
        assert.deepEqual(got, [...want].reverse(), `${account}: every cash flow, newest first, with its running sum`);

        const wantEvents = [...(memory.events.get(account) ?? [])].reverse();
        const all = await events.eventsOf([account], { limit: 10_000, offset: 0 });
        assert.deepEqual(all, { events: wantEvents, total: wantEvents.length }, `${account}: reputation events`);
        const middle = await events.eventsOf([account], { limit: 3, offset: 2 });
        assert.deepEqual(middle.events, wantEvents.slice(2, 5));

        assert.deepEqual(await tradeDays.of([account]), memory.days.has(account) ? [memory.days.get(account)] : [], `${account}: trading days`);
      }
      const merged = await events.eventsOf(ACCOUNTS, { limit: 10_000, offset: 0 });
      assert.equal(
        merged.total,
        [...memory.events.values()].reduce((n, l) => n + l.length, 0),
      );
      assert.deepEqual(
        merged.events.map((e) => e.seq),
        [...memory.events.values()]
          .flat()
          .map((e) => e.seq)
          .sort((x, y) => y - x),
        "several accounts' events merge newest first",
      );
      await follower.close();
    }
    const [cursor] = await db.query<{ s: string }>(`SELECT last_seq::text AS s FROM account_history_cursor`);
    assert.equal(Number(cursor!.s), seq);
  });
});
