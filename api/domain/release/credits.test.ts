/**
 * Banking units (docs/participation-release.md), on PGlite and, with DATABASE_URL, on Postgres: one unit per finished
 * UTC day from the day of verification (today waits for its end), nothing banked twice, and two identities banking at
 * once never take more than the pool holds.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Database } from "../../../relayer/db/client";
import { manualClock } from "../../../relayer/clock";
import { openTestDatabase } from "../../../test/support/db";
import { createLocalAgent } from "../auth/local-agents";
import { createLinkCode } from "../identity/links";
import { bankFinishedDays, creditTotals, poolRemaining } from "./credits";
import { DAY_MS, UNIT_WEI } from "./program";

const RELEASE = `0x${"ab".repeat(32)}`;
const DAY0 = 20_000; // a UTC day number

describe("banking participation units", () => {
  let db: Database;
  const clock = manualClock(DAY0 * DAY_MS);
  const identities: string[] = [];

  before(async () => {
    db = await openTestDatabase();
    for (const name of ["a", "b"]) {
      const agent = await createLocalAgent(db, clock, { name: `credits-${name}` });
      const actor = { agentId: agent.agentId, walletAddress: agent.walletAddress.toLowerCase(), ledgerAccount: agent.ledgerAccount };
      identities.push((await db.transaction((tx) => createLinkCode(tx, actor, clock.now()))).identityId);
    }
  });
  after(async () => db.close());

  it("banks each finished day from the day of verification on, once", async () => {
    const lane = { identityId: identities[0]!, verifiedAt: (DAY0 + 1) * DAY_MS + 5_000, tradeDays: new Set([DAY0, DAY0 + 1, DAY0 + 3, DAY0 + 4]) };
    const now = (DAY0 + 4) * DAY_MS + 60_000; // day DAY0 + 4 is not over yet
    await bankFinishedDays(db, RELEASE, lane, now);
    await bankFinishedDays(db, RELEASE, lane, now);
    assert.deepEqual(await creditTotals(db, lane.identityId), { bankedWei: 2n * UNIT_WEI, firstDay: DAY0 + 1 });
    await bankFinishedDays(db, RELEASE, lane, now + DAY_MS);
    assert.equal((await creditTotals(db, lane.identityId)).bankedWei, 3n * UNIT_WEI, "the day is banked once it is over");
  });

  it("never banks beyond the pool, with two identities banking at once", async () => {
    const pool = 5n * UNIT_WEI; // 3 units are banked already
    const days = new Set([DAY0 + 10, DAY0 + 11, DAY0 + 12]);
    const lane = (identityId: string) => ({ identityId, verifiedAt: DAY0 * DAY_MS, tradeDays: days });
    const now = (DAY0 + 20) * DAY_MS;
    await Promise.all([bankFinishedDays(db, RELEASE, lane(identities[0]!), now, pool), bankFinishedDays(db, RELEASE, lane(identities[1]!), now, pool)]);
    const [a, b] = [await creditTotals(db, identities[0]!), await creditTotals(db, identities[1]!)];
    assert.equal(a.bankedWei + b.bankedWei, pool, "exactly the pool, no more");
    assert.equal(await poolRemaining(db, RELEASE, pool), 0n);
    const rows = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM participation_credits`);
    assert.equal(rows[0]!.n, "5");
  });
});
