/**
 * Identity linking over real HTTP against startService (docs/identity.md): a root makes a code, children consent with
 * it, the root lists and approves in bulk (each consent its own result), the cap of 49 linked addresses, unlinking,
 * refusals that change nothing, codes that expire after 3 minutes and are shown once; the operator's verification
 * (admin API) that GET /me reports; one human vote per verified identity; and the MCP SDK client on the spec's tools.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Address } from "viem";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { LINK_CODE_TTL_MS, LINKED_ADDRESS_CAP } from "../../domain/identity/links";
import { accepted } from "../../platform/errors/engine-rejection";
import { createLifecycleMarket } from "../../../test/support/lifecycle-market";
import { apiClient, startTestService, stopTestService, type CallResult, type Json, type TestService } from "../../../test/support/service";

const PM = 1_000_000n;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ADMIN_TOKEN = "adm_linking_test_token_0123456789abc";

describe("identity linking", () => {
  let t: TestService;
  const agents: Record<string, LocalAgent> = {};
  const call: Record<string, ReturnType<typeof apiClient>> = {};
  let code = "";
  let identityId = "";
  let votedMarket = "";

  const ok = (r: CallResult, status = 200) => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    return r.json;
  };
  const problem = (r: CallResult, status: number, code: string, reason?: string) => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.equal(r.json.code, code, JSON.stringify(r.json));
    if (reason) assert.equal(r.json.reason, reason, JSON.stringify(r.json));
  };
  const admin = (method: string, path: string) =>
    fetch(`${new URL(t.svc.baseUrl).origin}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const identity = async (who: string) => ok(await call[who]!("GET", "/agents/me/identity"));
  const consent = async (who: string, c = code) => ok(await call[who]!("POST", "/identity/link-consent", { code: c }), 201);

  before(async () => {
    t = await startTestService({ PM_STARTING_GRANT: (1_000n * PM).toString(), ADMIN_TOKEN });
    for (const name of ["root", "kid1", "kid2", "kid3", "other", "voterA", "voterB", "voterC", "creator"]) {
      agents[name] = await createLocalAgent(t.svc.ctx.db, t.clock, { name: `link-${name}` });
      call[name] = apiClient(t, agents[name]!.apiKey);
    }
  });
  after(async () => stopTestService(t));

  it("an agent starts with no identity; its first link code makes one with it as root, and the code is shown once", async () => {
    const before = await identity("root");
    assert.deepEqual([before.identity, before.pendingConsent, before.identityVerified], [null, null, false]);
    assert.equal(before.walletAddress, agents.root!.walletAddress);
    problem(await call.root!("GET", "/identity/pending-links"), 409, "CONFLICT", "NO_IDENTITY");

    const made = await call.root!("POST", "/identity/link-code", {}, { idem: "code-1" });
    const c = ok(made, 201);
    assert.match(c.code, /^[A-Z0-9]{5}-[A-Z0-9]{5}$/);
    assert.equal(c.createdIdentity, true);
    assert.equal(c.ttlSeconds, 180);
    assert.equal(c.expiresAt, new Date(t.clock.now() + LINK_CODE_TTL_MS).toISOString());
    code = c.code;
    identityId = c.identityId;
    // A replay of the same write does not show the secret again, and makes no second code.
    const replay = await call.root!("POST", "/identity/link-code", {}, { idem: "code-1" });
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.notEqual(replay.json.code, code);
    const again = ok(await call.root!("POST", "/identity/link-code", {}), 201);
    assert.equal(again.createdIdentity, false);
    assert.equal(again.identityId, identityId);

    const mine = await identity("root");
    assert.equal(mine.identity.role, "root");
    assert.equal(mine.identity.verified, false);
    assert.deepEqual(mine.identity.root, { agentId: agents.root!.agentId, walletAddress: agents.root!.walletAddress });
    assert.deepEqual([mine.identity.linkedAddressCount, mine.identity.linkedAddressCap], [0, LINKED_ADDRESS_CAP]);
  });

  it("children consent with the code (any case, any hyphens); the root lists them; a second consent replaces the first", async () => {
    const k1 = await consent("kid1");
    assert.equal(k1.status, "pending");
    assert.equal(k1.walletAddress, agents.kid1!.walletAddress);
    assert.equal(k1.identityId, identityId);
    await consent("kid2", code.toLowerCase().replace("-", " "));
    const k1Again = await consent("kid1");
    assert.notEqual(k1Again.consentId, k1.consentId);
    assert.equal((await identity("kid1")).pendingConsent.consentId, k1Again.consentId);

    const pending = ok(await call.root!("GET", "/identity/pending-links"));
    assert.deepEqual(
      pending.consents.map((c: Json) => [c.agentName, c.walletAddress]),
      [
        ["link-kid2", agents.kid2!.walletAddress],
        ["link-kid1", agents.kid1!.walletAddress],
      ],
    );
    problem(await call.kid1!("GET", "/identity/pending-links"), 409, "CONFLICT", "NO_IDENTITY");
    problem(await call.root!("POST", "/identity/link-consent", { code }), 409, "CONFLICT", "SELF_LINK");
  });

  it("approves in bulk with a result per consent; a stale or foreign consent id changes nothing", async () => {
    const pending = ok(await call.root!("GET", "/identity/pending-links")).consents as Json[];
    const k2 = pending.find((c) => c.agentName === "link-kid2")!.consentId;
    const k1 = pending.find((c) => c.agentName === "link-kid1")!.consentId;
    const stranger = "00000000-0000-4000-8000-000000000000";
    const r = ok(await call.root!("POST", "/identity/approve-links", { consentIds: [k2, stranger, k1] }));
    assert.deepEqual(
      r.results.map((x: Json) => [x.consentId, x.status]),
      [
        [k2, "approved"],
        [stranger, "not_found"],
        [k1, "approved"],
      ],
    );
    assert.equal(r.linkedAddressCount, 2);
    const again = ok(await call.root!("POST", "/identity/approve-links", { consentIds: [k1] }));
    assert.equal(again.results[0].status, "not_found", "an approved consent is no longer pending");
    problem(await call.root!("POST", "/identity/approve-links", { consentIds: [k1, k1] }), 400, "INVALID_PAYLOAD");
    problem(await call.root!("POST", "/identity/approve-links", { consentIds: Array.from({ length: 21 }, () => crypto.randomUUID()) }), 400, "INVALID_PAYLOAD");

    const kid = await identity("kid1");
    assert.equal(kid.identity.role, "linked_agent");
    assert.equal(kid.identity.identityId, identityId);
    assert.equal(kid.pendingConsent, null);
    assert.deepEqual(
      kid.identity.members.map((m: Json) => m.role),
      ["root", "linked_agent", "linked_agent"],
    );
    // A linked member is not a root: it makes no codes, sees no consents, and cannot link elsewhere.
    problem(await call.kid1!("POST", "/identity/link-code", {}), 403, "FORBIDDEN", "NOT_IDENTITY_ROOT");
    problem(await call.kid1!("GET", "/identity/pending-links"), 403, "FORBIDDEN", "NOT_IDENTITY_ROOT");
    problem(await call.kid1!("POST", "/identity/link-consent", { code }), 409, "CONFLICT", "ALREADY_LINKED");
    const otherCode = ok(await call.other!("POST", "/identity/link-code", {}), 201).code;
    problem(await call.kid1!("POST", "/identity/link-consent", { code: otherCode }), 409, "CONFLICT", "LINKED_ELSEWHERE");
  });

  it("a code lives 3 minutes: afterwards (or never issued) it is 410 EXPIRED_TOKEN and nothing is recorded", async () => {
    problem(await call.kid3!("POST", "/identity/link-consent", { code: "ZZZZZ-ZZZZZ" }), 410, "EXPIRED_TOKEN");
    t.clock.advance(LINK_CODE_TTL_MS);
    problem(await call.kid3!("POST", "/identity/link-consent", { code }), 410, "EXPIRED_TOKEN");
    assert.equal((await identity("kid3")).pendingConsent, null);
    problem(await call.kid3!("POST", "/identity/link-consent", {}), 400, "INVALID_PAYLOAD");
    code = ok(await call.root!("POST", "/identity/link-code", {}), 201).code;
  });

  it("unlinks: the root any member but itself, a member only itself; each wallet its own result", async () => {
    const r = ok(
      await call.kid2!("POST", "/identity/unlink", { walletAddresses: [agents.kid1!.walletAddress, agents.root!.walletAddress, agents.kid2!.walletAddress] }),
    );
    assert.deepEqual(
      r.results.map((x: Json) => x.status),
      ["not_permitted", "is_root", "unlinked"],
    );
    assert.equal(r.linkedAddressCount, 1);
    assert.equal((await identity("kid2")).identity, null);
    const byRoot = ok(
      await call.root!("POST", "/identity/unlink", {
        walletAddresses: [agents.kid1!.walletAddress.toUpperCase().replace("0X", "0x"), agents.other!.walletAddress],
      }),
    );
    assert.deepEqual(
      byRoot.results.map((x: Json) => [x.walletAddress, x.status]),
      [
        [agents.kid1!.walletAddress, "unlinked"],
        [agents.other!.walletAddress, "not_a_member"],
      ],
    );
    problem(await call.kid1!("POST", "/identity/unlink", { walletAddresses: [agents.kid1!.walletAddress] }), 409, "CONFLICT", "NO_IDENTITY");
  });

  it("holds at most 49 linked addresses: the 50th approval is cap_reached and links nothing", async () => {
    const ids: string[] = [];
    for (let i = 0; i < LINKED_ADDRESS_CAP + 1; i++) {
      const a = await createLocalAgent(t.svc.ctx.db, t.clock, { name: `link-many-${i}` });
      ids.push(ok(await apiClient(t, a.apiKey)("POST", "/identity/link-consent", { code }), 201).consentId);
    }
    let approved = 0;
    const statuses: string[] = [];
    for (let i = 0; i < ids.length; i += 20) {
      const r = ok(await call.root!("POST", "/identity/approve-links", { consentIds: ids.slice(i, i + 20) }));
      statuses.push(...r.results.map((x: Json) => x.status));
      approved = r.linkedAddressCount;
    }
    assert.equal(approved, LINKED_ADDRESS_CAP);
    assert.deepEqual(statuses.slice(-2), ["approved", "cap_reached"]);
    const pending = ok(await call.root!("GET", "/identity/pending-links"));
    assert.deepEqual(
      pending.consents.map((c: Json) => c.consentId),
      [ids.at(-1)],
      "the consent over the cap stays pending",
    );
    // Free two places again for the voters that follow.
    const lastTwo = ((await identity("root")).identity.members as Json[]).slice(-2).map((m) => m.walletAddress);
    assert.deepEqual(ok(await call.root!("POST", "/identity/unlink", { walletAddresses: lastTwo })).linkedAddressCount, LINKED_ADDRESS_CAP - 2);
  });

  it("the operator verifies an identity (admin API); GET /me and the identity read say so for every member", async () => {
    const wrong = await admin("PUT", `/identities/${agents.voterC!.walletAddress}/verified`);
    assert.equal(wrong.status, 404, "a wallet in no identity");
    const put = await admin("PUT", `/identities/${agents.root!.walletAddress}/verified`);
    assert.equal(put.status, 200, await put.text());
    assert.equal(ok(await call.root!("GET", "/me")).identityVerified, true);
    assert.equal((await identity("root")).identity.verified, true);
    assert.equal(ok(await call.kid3!("GET", "/me")).identityVerified, false);
  });

  it("a verified identity casts one human vote per session, whichever of its wallets casts it", async () => {
    // voterA and voterB join the root's verified identity; voterC stays on its own.
    for (const who of ["voterA", "voterB"]) await consent(who);
    const pending = ok(await call.root!("GET", "/identity/pending-links")).consents as Json[];
    const mine = pending.filter((c) => c.agentName === "link-voterA" || c.agentName === "link-voterB").map((c) => c.consentId);
    assert.deepEqual(
      ok(await call.root!("POST", "/identity/approve-links", { consentIds: mine })).results.map((x: Json) => x.status),
      ["approved", "approved"],
    );
    for (const who of ["voterA", "voterB", "voterC", "creator", "other"]) ok(await call[who]!("GET", "/orderbook/balances"));
    const market = await createLifecycleMarket(t.svc, { creator: agents.creator!.ledgerAccount as Address, closeTime: t.clock.now() + DAY, seed: 500n * PM });
    votedMarket = market.address;
    t.clock.advance(DAY + HOUR);
    accepted(await t.svc.services.venue.exchange.submit({ type: "advanceLifecycle" }));
    ok(await call.creator!("POST", "/resolve/propose", { market: market.address, outcome: 0 }));
    assert.equal(ok(await call.other!("POST", "/resolve/challenge", { market: market.address })).market.state, "human_voting");

    const pmOf = async (who: string) => ((await call[who]!("GET", "/orderbook/balances")).json.balances as Json[]).find((b) => b.asset === "PM")!.available;
    ok(await call.voterA!("POST", "/resolve/vote", { market: market.address, outcome: 0 }));
    const before = await pmOf("voterB");
    problem(await call.voterB!("POST", "/resolve/vote", { market: market.address, outcome: 1 }), 409, "CONFLICT", "IDENTITY_ALREADY_VOTED");
    assert.equal(await pmOf("voterB"), before, "the refused ballot locked no stake");
    ok(await call.voterC!("POST", "/resolve/vote", { market: market.address, outcome: 1 }));
    const state = ok(await call.voterC!("GET", `/discover/markets/${market.address}/resolution-state`));
    assert.equal(state.vote.ballots, 2);

    // Unverified, the identity's wallets vote each for itself again (the rule is the verified identity's).
    assert.equal((await admin("DELETE", `/identities/${agents.root!.walletAddress}/verified`)).status, 200);
    ok(await call.voterB!("POST", "/resolve/vote", { market: market.address, outcome: 1 }));
  });

  it("lists an agent's own reputation events from the journal, for its wallet or its whole identity", async () => {
    const events = async (who: string, q = "") => ok(await call[who]!("GET", `/agents/me/reputation/events${q}`));
    const a = await events("voterA", "?filter=this_wallet");
    assert.deepEqual(a.accounts, [agents.voterA!.ledgerAccount]);
    assert.deepEqual(
      a.events.map((e: Json) => [e.kind, e.role, e.session, e.marketAddress, e.amount !== null]),
      [["ballot_cast", "juror", 1, votedMarket, true]],
    );
    // The root's identity holds voterA and voterB: all_linked (the default) reads their ballots too; this_wallet not.
    const all = await events("root");
    assert.equal(all.filter, "all_linked");
    assert.equal(all.accounts[0], agents.root!.ledgerAccount);
    assert.ok(all.accounts.includes(agents.voterA!.ledgerAccount) && all.accounts.includes(agents.voterB!.ledgerAccount));
    assert.deepEqual(
      all.events.map((e: Json) => [e.kind, e.account]).sort(),
      [
        ["ballot_cast", agents.voterA!.ledgerAccount],
        ["ballot_cast", agents.voterB!.ledgerAccount],
      ].sort(),
    );
    assert.equal((await events("root", "?filter=this_wallet")).total, 0);
    const creator = await events("creator");
    assert.deepEqual(
      creator.events.map((e: Json) => [e.kind, e.state]),
      [
        ["market_state", "challenge"],
        ["market_state", "creator_proposal"],
        ["market_created", null],
      ],
      "newest first",
    );
    const firstPage = await events("creator", "?limit=1&offset=1");
    assert.deepEqual([firstPage.total, firstPage.hasMore, firstPage.events[0].state], [3, true, "creator_proposal"]);
    assert.deepEqual(
      (await events("other")).events.map((e: Json) => [e.kind, e.role]),
      [["challenge_bond_locked", "challenger"]],
    );
    problem(await call.root!("GET", "/agents/me/reputation/events?filter=everyone"), 400, "INVALID_PAYLOAD");
    problem(await apiClient(t)("GET", "/agents/me/reputation/events"), 401, "AUTH_REQUIRED");
  });

  it("serves the spec's MCP tools through the MCP SDK client", async () => {
    const client = new Client({ name: "linking-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(t.svc.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${agents.root!.apiKey}` } } }),
    );
    try {
      const names = (await client.listTools()).tools.map((x) => x.name);
      // svc_get_agent_identity is GET /me (the spec's "Agent identity"); the linked identity is svc_get_linked_identity.
      for (const tool of [
        "svc_get_agent_identity",
        "svc_get_linked_identity",
        "svc_generate_link_code",
        "svc_submit_link_consent",
        "svc_list_pending_link_consents",
        "svc_approve_link_consents",
        "svc_unlink_identity_wallets",
      ])
        assert.ok(names.includes(tool), `${tool} is served`);
      const got = (await client.callTool({ name: "svc_get_linked_identity", arguments: {} })) as CallToolResult;
      assert.equal(got.isError, undefined, JSON.stringify(got));
      assert.equal((got.structuredContent as Json).identity.identityId, identityId);
      const made = (await client.callTool({ name: "svc_generate_link_code", arguments: { idempotencyKey: "mcp-code-1" } })) as CallToolResult;
      assert.equal((made.structuredContent as Json).identityId, identityId);
    } finally {
      await client.close();
    }
  });
});
