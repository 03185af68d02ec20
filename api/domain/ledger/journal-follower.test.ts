import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import type { JournalOp } from "../../../decoder";
import type { Database, SqlRunner } from "../../../relayer/db/client";
import { JournalWriter, opsToJson } from "../../../relayer/journal";
import { openTestDatabase } from "../../../test/support/db";
import { JournalFollower } from "./journal-follower";

const alice = "0x00000000000000000000000000000000000000a1" as Address;
const credit = (amount: bigint): JournalOp => ({ type: "CREDIT", account: alice, assetId: 0n, amount, reason: 0 });

describe("JournalFollower", () => {
  let db: Database;
  let writer: JournalWriter;
  const append = (at: number, amount: bigint) => writer.append({ at, command: "{}", ops: opsToJson([credit(amount)]), opCount: 1, reports: [] });
  /** The database, counting the statements run through it. */
  const counted = () => {
    const runner: SqlRunner & { statements: number } = {
      statements: 0,
      query: (text, params) => {
        runner.statements++;
        return db.query(text, params);
      },
      exec: (text) => db.exec(text),
    };
    return runner;
  };

  before(async () => {
    db = await openTestDatabase();
    writer = await JournalWriter.open(db);
    for (let i = 1; i <= 3; i++) await append(1000 + i, BigInt(i));
  });
  after(async () => {
    await db.close();
  });

  it("hands every entry once, in order, to each projection, in one read of the journal for all of them", async () => {
    const runner = counted();
    const seen: string[][] = [[], []];
    const follower = new JournalFollower(runner);
    for (const list of seen) follower.follow((seq, at, ops) => list.push(`${seq}@${at}:${ops[0].type === "CREDIT" ? ops[0].amount : "?"}`));
    await follower.catchUp();
    assert.deepEqual(seen[0], ["1@1001:1", "2@1002:2", "3@1003:3"]);
    assert.deepEqual(seen[1], seen[0]);
    assert.equal(runner.statements, 1, "one page read serves both projections");

    // Later reads take only what was committed since.
    await append(1004, 4n);
    await Promise.all([follower.catchUp(), follower.catchUp()]);
    assert.deepEqual(seen[0].slice(3), ["4@1004:4"]);
    assert.deepEqual(seen[1], seen[0]);
  });

  it("refuses a projection added after the journal was read, which would miss what was read", async () => {
    const follower = new JournalFollower(db).follow(() => {});
    await follower.catchUp();
    assert.throws(() => follower.follow(() => {}), /after the journal was read/);
  });

  it("reads in the background from start, and reads nothing once closed", async () => {
    const seqs: number[] = [];
    const follower = new JournalFollower(db).follow((seq) => seqs.push(seq));
    const failures: unknown[] = [];
    follower.start((err) => failures.push(err));
    await follower.close();
    const before = seqs.length;
    assert.ok(before === 0 || before === 4, `the background read applies whole pages (${before})`);
    await append(1005, 5n);
    await follower.catchUp();
    assert.equal(seqs.length, before, "a closed follower reads no more");
    assert.deepEqual(failures, []);
  });
});
