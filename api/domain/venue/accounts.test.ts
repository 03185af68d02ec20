/**
 * Opening an agent's engine account: the opening and its starting grant, once, durable together, and every caller
 * that arrives while an opening is in flight waits for the grant.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import { COLLATERAL_ASSET } from "../../../decoder";
import { manualClock } from "../../../relayer/clock";
import type { Database } from "../../../relayer/db/client";
import { Exchange } from "../../../relayer/exchange/exchange";
import { runEngineConfig } from "../../../relayer/exchange/trading-run";
import { readAll } from "../../../relayer/journal";
import { openTestDatabase } from "../../../test/support/db";
import { AccountOpener } from "./accounts";

const GRANT = 5_000_000n;
const T0 = 1_800_000_000_000;

describe("AccountOpener", () => {
  let db: Database;
  let ex: Exchange;
  before(async () => {
    db = await openTestDatabase();
    ex = await Exchange.open({ db, clock: manualClock(T0), engineConfig: runEngineConfig, expiryTimer: false, lifecycleTimer: false });
  });
  after(async () => {
    await ex.close();
    await db.close();
  });

  it("a caller that arrives while the opening is in flight resolves only once the grant is there", async () => {
    const opener = new AccountOpener(ex, GRANT);
    const account = "0x00000000000000000000000000000000000000a1" as Address;
    const first = opener.ensure(account, T0);
    // The engine knows the account from its openAccount on; the second caller must not take that as ready.
    assert.ok(ex.engine.accounts().includes(account));
    const second = opener.ensure(account, T0).then(() => ex.engine.balance(account, COLLATERAL_ASSET).total);
    assert.equal(await second, GRANT);
    await first;
    assert.equal(await opener.ensure(account, T0), account);
    assert.equal(ex.engine.balance(account, COLLATERAL_ASSET).total, GRANT, "granted once");
  });

  it("both journal entries, the opening and the grant, are durable when the opening resolves", async () => {
    const opener = new AccountOpener(ex, GRANT);
    const account = "0x00000000000000000000000000000000000000b2" as Address;
    await opener.ensure(account, T0);
    const mine: string[] = [];
    for await (const e of readAll(db)) if (e.command.includes(account)) mine.push((JSON.parse(e.command) as { type: string }).type);
    assert.deepEqual(mine, ["openAccount", "credit"]);
  });
});
