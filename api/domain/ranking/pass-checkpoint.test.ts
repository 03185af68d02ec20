/**
 * The leaderboard pass's checkpoint on a real database: a pass restored from the stored checkpoint and carried on over
 * more of the journal (across a day and a week boundary) gives the same generation as a pass that never stopped and
 * as one that read the whole journal; a checkpoint of another journal, season or layout is set aside; the Leaderboard
 * stores one at close and restores it at its first build.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import type { JournalOp } from "../../../decoder";
import { manualClock } from "../../../relayer/clock";
import type { Database } from "../../../relayer/db/client";
import { JournalWriter, opsToJson } from "../../../relayer/journal";
import { openTestDatabase } from "../../../test/support/db";
import { GenerationBuilder, type GenerationFigures } from "./generation";
import { Leaderboard, type LeaderboardOptions } from "./leaderboard";
import { decodeCheckpoint, encodeCheckpoint, saveCheckpoint, usableCheckpoint } from "./pass-checkpoint";
import { PERIODS, type Season } from "./periods";
import { applyEntry, emptyState, type PassState } from "./trading-pass";

const DAY = 86_400_000;
const SEASON: Season = { start: Date.UTC(2026, 8, 1), end: Date.UTC(2027, 0, 1) };
const ACCOUNTS = ["a1", "a2", "a3"].map((s) => `0x${s.padStart(40, "0")}` as Address);

/** Every figure of a state, as text. */
const textOf = (s: PassState) =>
  JSON.stringify(
    [s.trading, s.voting, s.markets].map((m) => [...m].map(([k, v]) => [k, v instanceof Map ? [...v] : v])),
    (_, v) => (typeof v === "bigint" ? v.toString() : v),
  );
/** Every period's figures of a generation, as text. */
const figuresOf = (g: GenerationFigures) =>
  PERIODS.map((k) => {
    const p = g.periods[k];
    return [k, p.bounds, p.start && textOf(p.start.state), textOf(p.end.state)];
  });

describe("the leaderboard pass's checkpoint", () => {
  let db: Database;
  let writer: JournalWriter;
  let at = Date.UTC(2026, 10, 20, 12);
  let step = 0;
  /** `n` entries of fills, ballots and a market's end, each a few hours after the last. */
  const journal = async (n: number) => {
    for (let i = 0; i < n; i++, step++) {
      at += 5 * 3_600_000;
      const ops: JournalOp[] = [
        {
          type: "MATCH",
          maker: ACCOUNTS[step % 3]!,
          taker: ACCOUNTS[(step + 1) % 3]!,
          marketId: BigInt(1 + (step % 2)),
          side: (step % 2) as 0 | 1,
          kind: step % 4 === 3 ? 0 : 2,
          shares: BigInt(100 + step),
          priceBps: 3_000 + step * 10,
          fee: 1n,
        },
      ];
      if (step % 5 === 4)
        ops.push({ type: "STAKE_LOCK", marketId: 1n, session: 1, account: ACCOUNTS[step % 3]!, amount: 7n, ballotHash: `0x${"11".repeat(32)}` });
      if (step === 12) ops.push({ type: "MARKET_STATE", marketId: 2n, state: "resolved", outcome: 1 });
      await writer.append({ at, command: `{"step":${step}}`, ops: opsToJson(ops), opCount: ops.length, reports: [] });
    }
  };

  before(async () => {
    db = await openTestDatabase();
    writer = await JournalWriter.open(db);
  });
  after(async () => {
    await db.close();
  });

  it("a restored pass goes on as the pass that never stopped and as one that read the whole journal", async () => {
    await journal(10);
    const running = new GenerationBuilder(db, 8453, SEASON);
    await running.build(at + 1);
    const c = running.checkpoint()!;
    assert.ok(await saveCheckpoint(db, { ...c, body: await encodeCheckpoint(c), season: SEASON, createdAt: at }));

    await journal(30); // 150 hours more: past a day and a week boundary
    const now = at + 1;
    const { checkpoint, setAside } = await usableCheckpoint(db, { maxSeq: Number.MAX_SAFE_INTEGER, now, season: SEASON });
    assert.equal(setAside, null);
    assert.equal(checkpoint?.lastSeq, c.lastSeq);
    // The restored pass reads the journal from the checkpoint's entry on, never from its start.
    const readFrom: unknown[] = [];
    const watched = {
      query: (text: string, params?: unknown[]) => {
        if (text.includes("FROM journal_entries WHERE seq >")) readFrom.push(params?.[0]);
        return db.query(text, params);
      },
      exec: (text: string) => db.exec(text),
    } as Database;
    const restored = new GenerationBuilder(watched, 8453, SEASON);
    restored.restore(checkpoint!);
    const whole = await new GenerationBuilder(db, 8453, SEASON).build(now);
    const fromCheckpoint = await restored.build(now);
    assert.deepEqual(figuresOf(fromCheckpoint), figuresOf(whole));
    assert.deepEqual(readFrom.map(Number).slice(0, 1), [c.lastSeq]);
    assert.deepEqual(figuresOf(await running.build(now)), figuresOf(whole));
    assert.equal(fromCheckpoint.lastSeq, whole.lastSeq);
    assert.ok(textOf(whole.periods.all.end.state).includes('"won":1'), "the journal settled a market, so the figures hold more than fills");
  });

  it("keeps amounts past 2^53 exact, and the records' fields as the pass makes them", async () => {
    const state = emptyState();
    const huge = 2n ** 80n + 1n;
    applyEntry(state, 1, [
      { type: "MATCH", maker: ACCOUNTS[0]!, taker: ACCOUNTS[1]!, marketId: 1n, side: 0, kind: 2, shares: huge, priceBps: 5_000, fee: 3n },
      { type: "STAKE_LOCK", marketId: 1n, session: 1, account: ACCOUNTS[2]!, amount: -(2n ** 60n), ballotHash: `0x${"11".repeat(32)}` },
      { type: "MARKET_STATE", marketId: 1n, state: "resolved", outcome: 0 },
    ]);
    const restored = await decodeCheckpoint(await encodeCheckpoint({ state, snaps: new Map() }));
    assert.equal(textOf(restored.state), textOf(state));
    assert.equal(restored.state.trading.get(ACCOUNTS[0]!.toLowerCase() as Address)?.get("1")?.shares[0], huge);
  });

  it("sets aside a checkpoint of another journal, season or layout, and waits for one ahead of the pass", async () => {
    const builder = new GenerationBuilder(db, 8453, SEASON);
    await builder.build(at + 1);
    const c = builder.checkpoint()!;
    await saveCheckpoint(db, { ...c, body: await encodeCheckpoint(c), season: SEASON, createdAt: at });
    const usable = (q: Partial<{ maxSeq: number; now: number; season: Season }> = {}) =>
      usableCheckpoint(db, { maxSeq: Number.MAX_SAFE_INTEGER, now: at + 1, season: SEASON, ...q });

    assert.deepEqual(await usable({ maxSeq: c.lastSeq - 1 }), { checkpoint: null, setAside: null }, "a pass up to an earlier entry");
    assert.deepEqual(await usable({ now: c.appliedTo - 1 }), { checkpoint: null, setAside: null }, "a pass up to an earlier instant");
    assert.equal((await usable({ season: { ...SEASON, end: SEASON.end + DAY } })).setAside, "another season");

    await db.query(`UPDATE leaderboard_checkpoint SET version = version + 1`);
    assert.match((await usable()).setAside ?? "", /layout version/);
    await db.query(`UPDATE leaderboard_checkpoint SET version = version - 1`);
    assert.ok((await usable()).checkpoint);

    // The journal's entry at the checkpoint's seq is not the one it was taken after (a database restored, written on).
    const [entry] = await db.query<{ command: string }>(`SELECT command::text AS command FROM journal_entries WHERE seq = $1`, [c.lastSeq]);
    await db.query(`UPDATE journal_entries SET command = '{"step":"edited"}' WHERE seq = $1`, [c.lastSeq]);
    assert.match((await usable()).setAside ?? "", /is not the one it was taken after/);
    await db.query(`UPDATE journal_entries SET command = $2::text::json WHERE seq = $1`, [c.lastSeq, entry!.command]);
    assert.ok((await usable()).checkpoint, "the entry's own text matches again");

    // An older checkpoint never replaces a newer one (two instances storing theirs).
    assert.equal(await saveCheckpoint(db, { ...c, lastSeq: c.lastSeq - 1, body: await encodeCheckpoint(c), season: SEASON, createdAt: at }), false);
    assert.equal((await usable()).checkpoint?.lastSeq, c.lastSeq);
  });

  it("the Leaderboard stores the checkpoint at close and restores it at its next start's first build", async () => {
    const lines: string[] = [];
    const log = {
      info: (_o: object, msg: string) => void lines.push(msg),
      warn: (_o: object, msg: string) => void lines.push(`warn: ${msg}`),
    } as unknown as LeaderboardOptions["log"];
    await db.exec(`DELETE FROM leaderboard_checkpoint`);
    const clock = manualClock(at + 1);
    const options = { db, clock, chainId: 8453, season: SEASON, refreshMs: 0, checkpointEvery: 1_000_000, log };
    const first = new Leaderboard(options);
    await first.standings([]);
    await first.close();
    const [row] = await db.query<{ s: string }>(`SELECT last_seq::text AS s FROM leaderboard_checkpoint`);
    assert.equal(Number(row!.s), step);
    assert.deepEqual(lines, ["leaderboard checkpoint stored"]);

    await journal(3);
    clock.set(at + 1);
    const second = new Leaderboard(options);
    await second.standings([]);
    assert.deepEqual(lines.slice(1), ["the leaderboard's pass restored from its checkpoint"]);
    await second.close();
    assert.deepEqual(lines.slice(2), ["leaderboard checkpoint stored"], "the three entries since moved it");

    // Off: nothing restored, nothing stored.
    const off = new Leaderboard({ ...options, checkpointEvery: 0 });
    await off.standings([]);
    await off.close();
    assert.equal(lines.length, 3);
  });
});
