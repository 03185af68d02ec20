/**
 * The persisted journal follower on a real database: each entry reaches each projection once, in order, inside the
 * page's transaction; a start resumes at the cursor; two instances on one database share the work without doubling
 * it; a failed page leaves nothing behind and is projected again.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import type { JournalOp } from "../../../decoder";
import type { Database } from "../../../relayer/db/client";
import { JournalWriter, opsToJson } from "../../../relayer/journal";
import { openTestDatabase } from "../../../test/support/db";
import { type FollowedEntry, JournalFollower } from "./journal-follower";

const alice = "0x00000000000000000000000000000000000000a1" as Address;
const credit = (amount: bigint): JournalOp => ({ type: "CREDIT", account: alice, assetId: 0n, amount, reason: 0 });
const labels = (page: readonly FollowedEntry[]) => page.map((e) => `${e.seq}@${e.at}:${e.ops[0]?.type === "CREDIT" ? e.ops[0].amount : "?"}`);

describe("JournalFollower", () => {
  let db: Database;
  let writer: JournalWriter;
  const append = (at: number, amount: bigint) => writer.append({ at, command: "{}", ops: opsToJson([credit(amount)]), opCount: 1, reports: [] });
  const cursor = async () => Number((await db.query<{ s: string }>(`SELECT last_seq::text AS s FROM account_history_cursor`))[0]!.s);
  /**
   * A follower whose projection records the pages it wrote and whether each page it prepared was resumed; `hold`,
   * when set, is awaited between preparing a page and writing it.
   */
  const recording = () => {
    const seen: string[] = [];
    const resumed: boolean[] = [];
    const state: { hold: (() => Promise<void>) | null } = { hold: null };
    const follower = new JournalFollower(db).follow({
      prepare: async (page, r) => {
        resumed.push(r);
        await state.hold?.();
        return async () => void seen.push(...labels(page));
      },
    });
    return { follower, seen, resumed, state };
  };

  before(async () => {
    db = await openTestDatabase();
    writer = await JournalWriter.open(db);
    for (let i = 1; i <= 3; i++) await append(1000 + i, BigInt(i));
  });
  after(async () => {
    await db.close();
  });

  it("hands every entry once, in order, to each projection, and a new instance resumes at the cursor", async () => {
    const lists: string[][] = [[], []];
    const follower = new JournalFollower(db);
    for (const list of lists) follower.follow({ prepare: async (page) => async () => void list.push(...labels(page)) });
    await follower.catchUp();
    assert.deepEqual(lists[0], ["1@1001:1", "2@1002:2", "3@1003:3"]);
    assert.deepEqual(lists[1], lists[0]);
    assert.equal(await cursor(), 3);

    // Later reads take only what was committed since; two at once project it once.
    await append(1004, 4n);
    await Promise.all([follower.catchUp(), follower.catchUp()]);
    assert.deepEqual(lists[0].slice(3), ["4@1004:4"]);
    assert.deepEqual(lists[1], lists[0]);
    await follower.close();

    // A restarted service starts at the cursor: nothing is handed twice.
    await append(1005, 5n);
    const restarted = recording();
    await restarted.follower.catchUp();
    assert.deepEqual(restarted.seen, ["5@1005:5"]);
    assert.deepEqual(restarted.resumed, [false], "its first page is not resumed: it has nothing in memory yet");
    await restarted.follower.close();
  });

  it("refuses a projection added after the journal was read, which would miss what was read", async () => {
    const nothing = { prepare: async () => async () => {} };
    const follower = new JournalFollower(db).follow(nothing);
    await follower.catchUp();
    assert.throws(() => follower.follow(nothing), /after the journal was read/);
    await follower.close();
  });

  it("shares the journal between two instances: each entry is projected once, and memory is re-read after the other moved", async () => {
    const a = recording();
    const b = recording();
    await a.follower.catchUp();
    await append(1006, 6n);
    await a.follower.catchUp();
    await append(1007, 7n);
    await a.follower.catchUp();
    assert.deepEqual(
      [a.seen, a.resumed],
      [
        ["6@1006:6", "7@1007:7"],
        [false, true],
      ],
      "a's second page follows where a left the cursor",
    );
    await append(1008, 8n);
    await b.follower.catchUp();
    assert.deepEqual([b.seen, b.resumed], [["8@1008:8"], [false]]);
    await append(1009, 9n);
    await a.follower.catchUp();
    assert.deepEqual([a.seen.at(-1), a.resumed.at(-1)], ["9@1009:9", false], "b moved the cursor since a's last page");
    await append(1010, 10n);
    await Promise.all([a.follower.catchUp(), b.follower.catchUp(), a.follower.catchUp()]);
    assert.deepEqual([...a.seen, ...b.seen].sort(), ["10@1010:10", "6@1006:6", "7@1007:7", "8@1008:8", "9@1009:9"]);
    await Promise.all([a.follower.close(), b.follower.close()]);
  });

  it("writes nothing of a page another instance wrote while this one prepared it", async () => {
    const a = recording();
    const b = recording();
    await Promise.all([a.follower.catchUp(), b.follower.catchUp()]);
    await append(1011, 11n);
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let prepared = () => {};
    const preparing = new Promise<void>((r) => {
      prepared = r;
    });
    a.state.hold = () => {
      prepared();
      return held;
    };
    const aRun = a.follower.catchUp();
    await preparing;
    a.state.hold = null;
    await b.follower.catchUp();
    release();
    await aRun;
    assert.deepEqual([a.seen, b.seen], [[], ["11@1011:11"]], "a found the cursor moved and wrote nothing");
    await append(1012, 12n);
    await a.follower.catchUp();
    assert.deepEqual(a.seen, ["12@1012:12"]);
    assert.equal(a.resumed.at(-1), false, "a's next page re-reads what it keeps in memory");
    await Promise.all([a.follower.close(), b.follower.close()]);
  });

  it("rolls a failed page back whole, and projects it again unresumed", async () => {
    await append(1013, 13n);
    let fail = false;
    const written: string[] = [];
    const resumed: boolean[] = [];
    const marker = async () => (await db.query(`SELECT 1 FROM account_trade_days WHERE account = 'marker'`)).length;
    const follower = new JournalFollower(db).follow({
      prepare: async (page, r) => {
        resumed.push(r);
        return async (tx) => {
          await tx.query(`INSERT INTO account_trade_days (account, day, last_at) VALUES ('marker', 0, 0) ON CONFLICT DO NOTHING`);
          if (fail) throw new Error("a projection failed");
          written.push(...labels(page));
        };
      },
    });
    await follower.catchUp();
    fail = true;
    await append(1014, 14n);
    const at = await cursor();
    await db.exec(`DELETE FROM account_trade_days WHERE account = 'marker'`);
    await assert.rejects(follower.catchUp(), /a projection failed/);
    assert.deepEqual([await cursor(), await marker()], [at, 0], "neither the cursor nor the page's rows moved");
    fail = false;
    await follower.catchUp();
    assert.deepEqual(written, ["13@1013:13", "14@1014:14"]);
    assert.deepEqual(resumed, [false, true, false], "the page after a failure re-reads what it keeps in memory");
    await follower.close();
  });

  it("projects in the background after a journal write, and nothing once closed", async () => {
    const seen: string[] = [];
    const failures: unknown[] = [];
    const background = new JournalFollower(db, (err) => failures.push(err));
    background.follow({ prepare: async (page) => async () => void seen.push(...labels(page)) });
    background.start();
    await background.catchUp();
    await append(1015, 15n);
    // A write of this database schedules a catch-up; wait for it without asking for one.
    for (let i = 0; i < 40 && !seen.includes("15@1015:15"); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(seen.includes("15@1015:15"), "the write was projected without a read asking");
    await background.close();
    await append(1016, 16n);
    await background.catchUp();
    assert.ok(!seen.includes("16@1016:16"), "a closed follower projects no more");
    assert.deepEqual(failures, []);
  });
});
