import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { openTestDatabase } from "../../../test/support/db";
import type { Database } from "../../../relayer/db/client";
import { manualClock } from "../../../relayer/clock";
import { configurePrincipalCache, findPrincipal, issueKey, revokeKey } from "./api-keys";
import { setGrants } from "./agents";
import { createLocalAgent } from "./local-agents";

describe("key -> principal cache", () => {
  let db: Database;
  let lookups: { n: number };
  const clock = manualClock(1_800_000_000_000);
  before(async () => {
    db = await openTestDatabase();
    configurePrincipalCache(db, { ttlMs: 60_000 }); // only writes may end an entry in these tests
    lookups = { n: 0 };
    const query = db.query.bind(db);
    db.query = (async (text: string, params?: unknown[]) => {
      if (text.includes("FROM api_keys k JOIN api_agents a")) lookups.n++;
      return query(text, params);
    }) as Database["query"];
  });
  after(async () => {
    await db.close();
  });

  it("answers a repeated lookup from memory, each caller with its own object", async () => {
    const agent = await createLocalAgent(db, clock, { name: "cache-1" });
    const first = await findPrincipal(db, agent.apiKey);
    const n = lookups.n;
    const second = await findPrincipal(db, agent.apiKey);
    assert.equal(lookups.n, n);
    assert.deepEqual(second, first);
    assert.notEqual(second, first);
    second!.scopes.length = 0;
    assert.notEqual((await findPrincipal(db, agent.apiKey))!.scopes.length, 0);
  });

  it("a revocation, a rotation and a grant change take effect at once", async () => {
    const agent = await createLocalAgent(db, clock, { name: "cache-2", tier: "read-only" });
    assert.equal((await findPrincipal(db, agent.apiKey))?.tier, "read-only");
    // Written by another module, in a transaction: seen once it committed.
    await db.transaction((tx) => setGrants(tx, agent.agentId, { tier: "execute", scopes: ["markets:read"] }));
    assert.equal((await findPrincipal(db, agent.apiKey))?.tier, "execute");
    const rotated = await db.transaction(async (tx) => {
      await revokeKey(tx, agent.agentId, agent.keyId, clock.now());
      return issueKey(tx, agent.agentId, clock.now());
    });
    assert.equal(await findPrincipal(db, agent.apiKey), null, "the old key is refused at once");
    assert.equal((await findPrincipal(db, rotated.apiKey))?.keyId, rotated.keyId);
    await revokeKey(db, agent.agentId, rotated.keyId, clock.now());
    assert.equal(await findPrincipal(db, rotated.apiKey), null);
  });

  it("with TTL 0 every lookup asks the database", async () => {
    const agent = await createLocalAgent(db, clock, { name: "cache-3" });
    configurePrincipalCache(db, { ttlMs: 0 });
    const n = lookups.n;
    await findPrincipal(db, agent.apiKey);
    await findPrincipal(db, agent.apiKey);
    assert.equal(lookups.n, n + 2);
    configurePrincipalCache(db, { ttlMs: 60_000 });
  });
});
