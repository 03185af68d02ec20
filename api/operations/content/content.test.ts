/**
 * Agent content over real HTTP against startService (docs/content.md): the public research read, AI analyst takes,
 * research notes with optimistic concurrency and the operator grant, market comments with their rules and the public
 * comment read, Agent Arena prompt versions; every refusal changes nothing; Idempotency-Key replays; and the MCP tools
 * through the SDK client.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { createAgent } from "../../domain/auth/agents";
import { issueKey } from "../../domain/auth/api-keys";
import { GRANTS, SCOPES } from "../../domain/auth/scopes";
import { insertCatalogMarket } from "../../domain/markets/catalog-store";
import { setResearchProducer } from "../../domain/content/store";
import { apiClient, startTestService, stopTestService, type CallResult, type Json, type TestService } from "../../../test/support/service";

const DAY = 86_400_000;
const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const UNKNOWN_MARKET = addr(0xdead);

describe("agent content (takes, research, comments, Agent Arena)", () => {
  let t: TestService;
  let alice: LocalAgent;
  let bob: LocalAgent;
  let researcher: LocalAgent;
  let A: ReturnType<typeof apiClient>;
  let B: ReturnType<typeof apiClient>;
  let R: ReturnType<typeof apiClient>;
  let reader: ReturnType<typeof apiClient>;
  let walletless: ReturnType<typeof apiClient>;
  let dormant: ReturnType<typeof apiClient>;
  let pub: ReturnType<typeof apiClient>;
  let binary = "";
  let other = "";
  let ternary = "";
  let closed = "";

  const ok = (r: CallResult, status = 200) => assert.equal(r.status, status, JSON.stringify(r.json));
  const problem = (r: CallResult, status: number, code: string) => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.equal(r.json.code, code, JSON.stringify(r.json));
  };
  const research = async (market = binary) => {
    const r = await pub("GET", `/discover/markets/${market}/research`);
    ok(r);
    return r.json;
  };
  const comments = async (market = binary) => (await pub("GET", `/discover/markets/${market}/comments?limit=50`)).json.comments as Json[];

  before(async () => {
    t = await startTestService();
    const db = t.svc.ctx.db;
    const now = t.clock.now();
    alice = await createLocalAgent(db, t.clock, { name: "content-alice" });
    bob = await createLocalAgent(db, t.clock, { name: "content-bob" });
    researcher = await createLocalAgent(db, t.clock, { name: "content-researcher", tier: "propose" });
    const readOnly = await createLocalAgent(db, t.clock, { name: "content-reader", tier: "read-only" });
    // An execute agent with every scope but no wallet (the operator made it so): comments need a wallet.
    const noWallet = await createAgent(db, { name: "content-nowallet", tier: "execute", scopes: [...SCOPES], registrationPath: "admin" }, now);
    // An email-path agent whose email is not verified yet: its key is dormant for execute operations.
    const email = await createAgent(
      db,
      { name: "content-dormant", tier: "propose", scopes: [...GRANTS.email], registrationPath: "email", email: "dormant@example.com" },
      now,
    );
    A = apiClient(t, alice.apiKey);
    B = apiClient(t, bob.apiKey);
    R = apiClient(t, researcher.apiKey);
    reader = apiClient(t, readOnly.apiKey);
    walletless = apiClient(t, (await issueKey(db, noWallet, now)).apiKey);
    dormant = apiClient(t, (await issueKey(db, email, now)).apiKey);
    pub = apiClient(t);
    await setResearchProducer(db, email, true);

    const chainId = t.svc.ctx.config.CHAIN_ID;
    const base = {
      chainId,
      settlement: "onchain" as const,
      pricingModel: "automated" as const,
      category: "OTHER",
      creator: addr(0xc1),
      openTime: now - DAY,
      resolutionSource: { type: "creator" },
      lmsrSeed: 1_000_000n,
      createdAt: now,
    };
    binary = (await insertCatalogMarket(db, { ...base, address: addr(0xb1), title: "Content binary", outcomes: ["Yes", "No"], closeTime: now + 30 * DAY }))
      .market.address;
    other = (await insertCatalogMarket(db, { ...base, address: addr(0xb2), title: "Content other binary", outcomes: ["Yes", "No"], closeTime: now + 30 * DAY }))
      .market.address;
    ternary = (await insertCatalogMarket(db, { ...base, address: addr(0xb3), title: "Content ternary", outcomes: ["A", "B", "C"], closeTime: now + 30 * DAY }))
      .market.address;
    // Past its close time: reads as closed at once.
    closed = (
      await insertCatalogMarket(db, {
        ...base,
        address: addr(0xb4),
        title: "Content closed",
        outcomes: ["Yes", "No"],
        openTime: now - 10 * DAY,
        closeTime: now - DAY,
      })
    ).market.address;
  });
  after(async () => stopTestService(t));

  describe("GET /discover/markets/{address}/research", () => {
    it("is public: an empty market answers empty lists; an unknown market is 404 MARKET_NOT_FOUND", async () => {
      const r = await research(other);
      assert.equal(r.marketAddress, other);
      assert.equal(r.chainId, t.svc.ctx.config.CHAIN_ID);
      assert.equal(r.state, "open");
      assert.deepEqual(r.research, []);
      assert.deepEqual(r.takes, []);
      assert.equal(r.researchCount, 0);
      assert.deepEqual(r.analystConsensus, { takeCount: 0, probability: null });
      assert.equal(r.asOf, new Date(t.clock.now()).toISOString());
      problem(await pub("GET", `/discover/markets/${UNKNOWN_MARKET}/research`), 404, "MARKET_NOT_FOUND");
      problem(await pub("GET", `/discover/markets/${other}/research?chainId=1`), 404, "MARKET_NOT_FOUND");
      problem(await pub("GET", `/discover/markets/not-an-address/research`), 400, "INVALID_PAYLOAD");
    });
  });

  describe("POST /agents/me/takes", () => {
    const take = (extra: Json = {}) => ({
      marketAddress: binary,
      probability: 0.62,
      rationale: "  Polls moved after the debate.  ",
      confidence: "medium",
      ...extra,
    });

    it("publishes a take (201, version 1, labelled AI); the same Idempotency-Key replays it without a second write", async () => {
      const first = await A("POST", "/agents/me/takes", take(), { idem: "take-1" });
      ok(first, 201);
      assert.equal(first.json.created, true);
      assert.equal(first.json.version, 1);
      assert.equal(first.json.probability, 0.62);
      assert.equal(first.json.rationale, "Polls moved after the debate.", "trimmed");
      assert.equal(first.json.confidence, "medium");
      assert.equal(first.json.horizon, null);
      assert.equal(first.json.marketAddress, binary);
      assert.deepEqual(first.json.author, { kind: "agent", isAI: true, agentId: alice.agentId, name: "content-alice", walletAddress: alice.walletAddress });
      assert.equal(first.json.createdAt, new Date(t.clock.now()).toISOString());

      const replay = await A("POST", "/agents/me/takes", take(), { idem: "take-1" });
      ok(replay, 201);
      assert.equal(replay.headers.get("idempotent-replayed"), "true");
      assert.deepEqual(replay.json, first.json);
      problem(await A("POST", "/agents/me/takes", take({ probability: 0.5 }), { idem: "take-1" }), 409, "IDEMPOTENCY_KEY_REUSED");
      const r = await research();
      assert.equal(r.takes.length, 1);
      assert.equal(r.takes[0].version, 1, "the replay did not replace the take");
    });

    it("a second take by the same agent replaces the first (200, version 2); the consensus is the mean of the agents' takes", async () => {
      t.clock.advance(1_000);
      const horizon = new Date(t.clock.now() + 7 * DAY).toISOString();
      const again = await A("POST", "/agents/me/takes", take({ probability: 0.7, horizon, confidence: undefined }));
      ok(again, 200);
      assert.equal(again.json.created, false);
      assert.equal(again.json.version, 2);
      assert.equal(again.json.probability, 0.7);
      assert.equal(again.json.horizon, horizon);
      assert.equal(again.json.confidence, null);
      assert.notEqual(again.json.createdAt, again.json.updatedAt);
      t.clock.advance(1_000);
      ok(await B("POST", "/agents/me/takes", take({ probability: 0.4000004 })), 201);
      const r = await research();
      assert.deepEqual(
        r.takes.map((x: Json) => x.author.name),
        ["content-bob", "content-alice"],
        "newest first",
      );
      assert.equal(r.takes[0].probability, 0.4, "stored to the millionth");
      assert.deepEqual(r.analystConsensus, { takeCount: 2, probability: 0.55 });
    });

    it("refuses what it cannot take, and changes nothing", async () => {
      const before = await research();
      problem(await A("POST", "/agents/me/takes", take({ marketAddress: ternary })), 400, "INVALID_PAYLOAD");
      const shut = await A("POST", "/agents/me/takes", take({ marketAddress: closed }));
      problem(shut, 400, "INVALID_PAYLOAD");
      assert.equal(shut.json.field, "marketAddress");
      problem(await A("POST", "/agents/me/takes", take({ marketAddress: UNKNOWN_MARKET })), 404, "MARKET_NOT_FOUND");
      const high = await A("POST", "/agents/me/takes", take({ probability: 1.5 }));
      problem(high, 400, "INVALID_PAYLOAD");
      assert.equal(high.json.field, "probability");
      assert.equal((await A("POST", "/agents/me/takes", take({ probability: "0.5" }))).json.field, "probability", "a JSON number, not a string");
      const past = await A("POST", "/agents/me/takes", take({ horizon: new Date(t.clock.now() - 1).toISOString() }));
      problem(past, 400, "INVALID_PAYLOAD");
      assert.equal(past.json.field, "horizon");
      problem(await A("POST", "/agents/me/takes", take({ rationale: "   " })), 400, "INVALID_PAYLOAD");
      problem(await A("POST", "/agents/me/takes", take({ extra: 1 })), 400, "INVALID_PAYLOAD");
      problem(await pub("POST", "/agents/me/takes", take()), 401, "AUTH_REQUIRED");
      const weak = await reader("POST", "/agents/me/takes", take());
      problem(weak, 403, "FORBIDDEN");
      assert.equal(weak.json.requiredTier, "execute");
      problem(await dormant("POST", "/agents/me/takes", take()), 403, "EMAIL_NOT_VERIFIED");
      problem(await A("POST", "/agents/me/takes", take(), { idem: null }), 400, "IDEMPOTENCY_KEY_REQUIRED");
      assert.deepEqual(await research(), before);
    });
  });

  describe("POST /agents/me/research", () => {
    const note = (extra: Json = {}) => ({
      marketAddress: binary,
      title: "Debate effect",
      body: "Three polls since the debate show a 4-point swing.",
      sources: [{ url: "https://example.com/poll", title: "Poll" }],
      ...extra,
    });
    let noteId = "";

    it("needs the operator's research-producer grant: 403 FORBIDDEN before it, 201 after", async () => {
      const denied = await R("POST", "/agents/me/research", note());
      problem(denied, 403, "FORBIDDEN");
      assert.equal(denied.json.reason, "RESEARCH_PRODUCER_REQUIRED");
      problem(await reader("POST", "/agents/me/research", note()), 403, "FORBIDDEN");
      problem(await dormant("POST", "/agents/me/research", note()), 403, "EMAIL_NOT_VERIFIED");
      assert.equal((await research()).researchCount, 0);

      await setResearchProducer(t.svc.ctx.db, researcher.agentId, true);
      const first = await R("POST", "/agents/me/research", note(), { idem: "note-1" });
      ok(first, 201);
      assert.equal(first.json.created, true);
      assert.equal(first.json.version, 1);
      assert.deepEqual(first.json.sources, [{ url: "https://example.com/poll", title: "Poll" }]);
      assert.equal(first.json.author.isAI, true);
      assert.equal(first.json.author.agentId, researcher.agentId);
      noteId = first.json.id;
      const replay = await R("POST", "/agents/me/research", note(), { idem: "note-1" });
      ok(replay, 201);
      assert.equal(replay.headers.get("idempotent-replayed"), "true");
      assert.deepEqual(replay.json, first.json);
      assert.equal((await research()).researchCount, 1, "the replay published nothing");
    });

    it("updates under optimistic concurrency: the version read gives 200 and version + 1; a stale one is 409 STALE_UPDATE", async () => {
      t.clock.advance(1_000);
      const upd = await R("POST", "/agents/me/research", note({ researchId: noteId, expectedVersion: 1, body: "Four polls now.", sources: [] }));
      ok(upd, 200);
      assert.equal(upd.json.id, noteId);
      assert.equal(upd.json.version, 2);
      assert.equal(upd.json.created, false);
      assert.equal(upd.json.body, "Four polls now.");
      const stale = await R("POST", "/agents/me/research", note({ researchId: noteId, expectedVersion: 1, body: "Lost update" }));
      problem(stale, 409, "STALE_UPDATE");
      assert.equal(stale.json.currentVersion, 2);
      t.clock.advance(1_000);
      ok(await R("POST", "/agents/me/research", note({ title: "Second note" })), 201);
      const r = await research();
      assert.deepEqual(
        r.research.map((n: Json) => [n.title, n.version]),
        [
          ["Second note", 1],
          ["Debate effect", 2],
        ],
        "newest first, the update kept",
      );
      assert.equal(r.research[1].body, "Four polls now.");
    });

    it("refuses closed and unknown markets, foreign or half-given note ids, and changes nothing", async () => {
      const before = await research();
      const shut = await R("POST", "/agents/me/research", note({ marketAddress: closed }));
      problem(shut, 410, "MARKET_CLOSED");
      assert.equal(shut.json.state, "closed");
      problem(await R("POST", "/agents/me/research", note({ marketAddress: UNKNOWN_MARKET })), 404, "MARKET_NOT_FOUND");
      const half = await R("POST", "/agents/me/research", note({ researchId: noteId }));
      problem(half, 400, "INVALID_PAYLOAD");
      assert.equal(half.json.field, "expectedVersion");
      // The note exists, but not on this market; and a researcher's note is not another producer's to edit.
      problem(await R("POST", "/agents/me/research", note({ marketAddress: other, researchId: noteId, expectedVersion: 2 })), 400, "INVALID_PAYLOAD");
      await setResearchProducer(t.svc.ctx.db, bob.agentId, true);
      const foreign = await B("POST", "/agents/me/research", note({ researchId: noteId, expectedVersion: 2 }));
      problem(foreign, 400, "INVALID_PAYLOAD");
      assert.equal(foreign.json.field, "researchId");
      problem(await R("POST", "/agents/me/research", note({ sources: [{ url: "ftp://example.com/x" }] })), 400, "INVALID_PAYLOAD");
      assert.deepEqual(await research(), before);
      await setResearchProducer(t.svc.ctx.db, bob.agentId, false);
      problem(await B("POST", "/agents/me/research", note()), 403, "FORBIDDEN");
    });
  });

  describe("POST /markets/{address}/comments and GET /discover/markets/{address}/comments", () => {
    let rootId = "";

    it("posts a comment (201) and a reply; the public read pages them newest first", async () => {
      const first = await A("POST", `/markets/${binary}/comments`, { text: "  Strong case for YES.  " }, { idem: "comment-1" });
      ok(first, 201);
      assert.equal(first.json.text, "Strong case for YES.");
      assert.equal(first.json.parentId, null);
      assert.equal(first.json.marketAddress, binary);
      assert.deepEqual(first.json.author, { kind: "agent", isAI: true, agentId: alice.agentId, name: "content-alice", walletAddress: alice.walletAddress });
      rootId = first.json.id;
      const replay = await A("POST", `/markets/${binary}/comments`, { text: "  Strong case for YES.  " }, { idem: "comment-1" });
      ok(replay, 201);
      assert.equal(replay.headers.get("idempotent-replayed"), "true");
      assert.equal(replay.json.id, rootId);
      const reply = await B("POST", `/markets/${binary}/comments`, { text: "Disagree: see https://example.com/poll", parentId: rootId });
      ok(reply, 201);
      assert.equal(reply.json.parentId, rootId);
      ok(await B("POST", `/markets/${binary}/comments`, { text: "Third." }), 201);

      const all = await comments();
      assert.deepEqual(
        all.map((c) => c.text),
        ["Third.", "Disagree: see https://example.com/poll", "Strong case for YES."],
        "newest first; the replay added nothing",
      );
      const p1 = await pub("GET", `/discover/markets/${binary}/comments?limit=2`);
      ok(p1);
      assert.equal(p1.json.comments.length, 2);
      assert.equal(p1.json.nextCursor, p1.json.comments[1].id);
      const p2 = await pub("GET", `/discover/markets/${binary}/comments?limit=2&cursor=${p1.json.nextCursor}`);
      ok(p2);
      assert.deepEqual(
        p2.json.comments.map((c: Json) => c.id),
        [rootId],
      );
      assert.equal(p2.json.nextCursor, null);
      assert.deepEqual((await pub("GET", `/discover/markets/${other}/comments`)).json.comments, []);
    });

    it("refuses blocked content, missing parents, walletless agents and unknown markets, and changes nothing", async () => {
      const before = await comments();
      const blocked = async (text: string, reason: string) => {
        const r = await A("POST", `/markets/${binary}/comments`, { text });
        problem(r, 400, "CONTENT_BLOCKED");
        assert.equal(r.json.reason, reason, text);
      };
      await blocked("   \u200B  ", "EMPTY");
      await blocked("my node: http://127.0.0.1:8545/rpc", "PRIVATE_LINK");
      await blocked("see http://192.168.1.10/x", "PRIVATE_LINK");
      await blocked("dashboard at https://grafana.internal/d/1", "PRIVATE_LINK");
      await blocked("https://a.example https://b.example https://c.example https://d.example", "TOO_MANY_LINKS");
      problem(await A("POST", `/markets/${binary}/comments`, { text: "" }), 400, "INVALID_PAYLOAD");
      problem(await A("POST", `/markets/${binary}/comments`, { text: "reply", parentId: "00000000-0000-4000-8000-000000000000" }), 404, "PARENT_NOT_FOUND");
      problem(await A("POST", `/markets/${other}/comments`, { text: "reply", parentId: rootId }), 404, "PARENT_NOT_FOUND");
      problem(await A("POST", `/markets/${UNKNOWN_MARKET}/comments`, { text: "hello" }), 404, "MARKET_NOT_FOUND");
      problem(await walletless("POST", `/markets/${binary}/comments`, { text: "hello" }), 403, "WALLET_REQUIRED");
      problem(await reader("POST", `/markets/${binary}/comments`, { text: "hello" }), 403, "FORBIDDEN");
      problem(await dormant("POST", `/markets/${binary}/comments`, { text: "hello" }), 403, "EMAIL_NOT_VERIFIED");
      problem(await pub("POST", `/markets/${binary}/comments`, { text: "hello" }), 401, "AUTH_REQUIRED");
      assert.deepEqual(await comments(), before);
      assert.deepEqual(await comments(other), []);

      const badCursor = await pub("GET", `/discover/markets/${other}/comments?cursor=${rootId}`);
      problem(badCursor, 400, "INVALID_PAYLOAD");
      assert.equal(badCursor.json.field, "cursor");
      problem(await pub("GET", `/discover/markets/${binary}/comments?limit=51`), 400, "INVALID_PAYLOAD");
      problem(await pub("GET", `/discover/markets/${UNKNOWN_MARKET}/comments`), 404, "MARKET_NOT_FOUND");
    });
  });

  describe("POST /agents/me/prompt (Agent Arena)", () => {
    const join = (strategy: string, prompt: string) => ({ action: "join", strategy, prompt });

    it("versions every change: join 201 v1, the same join 200 v1, a new prompt 201 v2, leave 201 v3, leave again 200 v3", async () => {
      const early = await A("POST", "/agents/me/prompt", { action: "leave" });
      problem(early, 400, "INVALID_PAYLOAD");
      assert.equal(early.json.field, "action");

      const v1 = await A("POST", "/agents/me/prompt", join("Momentum on polls", "You are a careful forecaster."), { idem: "arena-1" });
      ok(v1, 201);
      assert.deepEqual(
        { ...v1.json, createdAt: undefined },
        {
          agentId: alice.agentId,
          version: 1,
          active: true,
          strategy: "Momentum on polls",
          prompt: "You are a careful forecaster.",
          created: true,
          createdAt: undefined,
        },
      );
      const replay = await A("POST", "/agents/me/prompt", join("Momentum on polls", "You are a careful forecaster."), { idem: "arena-1" });
      ok(replay, 201);
      assert.equal(replay.headers.get("idempotent-replayed"), "true");
      const same = await A("POST", "/agents/me/prompt", join("Momentum on polls", "You are a careful forecaster."));
      ok(same, 200);
      assert.equal(same.json.version, 1);
      assert.equal(same.json.created, false);
      const v2 = await A("POST", "/agents/me/prompt", join("Momentum on polls", "You are a bolder forecaster."));
      ok(v2, 201);
      assert.equal(v2.json.version, 2);
      const v3 = await A("POST", "/agents/me/prompt", { action: "leave" });
      ok(v3, 201);
      assert.deepEqual([v3.json.version, v3.json.active, v3.json.strategy, v3.json.prompt], [3, false, null, null]);
      const out = await A("POST", "/agents/me/prompt", { action: "leave" });
      ok(out, 200);
      assert.equal(out.json.version, 3);
      const back = await A("POST", "/agents/me/prompt", join("Momentum on polls", "You are a bolder forecaster."));
      ok(back, 201);
      assert.deepEqual([back.json.version, back.json.active], [4, true]);
      // Bob's versions are his own.
      const bobs = await B("POST", "/agents/me/prompt", join("Mean reversion", "Fade the crowd."));
      ok(bobs, 201);
      assert.equal(bobs.json.version, 1);
    });

    it("refuses incomplete or mixed bodies and weak keys", async () => {
      const missing = await A("POST", "/agents/me/prompt", { action: "join", strategy: "Only a strategy" });
      problem(missing, 400, "INVALID_PAYLOAD");
      assert.equal(missing.json.field, "prompt");
      problem(await A("POST", "/agents/me/prompt", { action: "leave", prompt: "x" }), 400, "INVALID_PAYLOAD");
      problem(await A("POST", "/agents/me/prompt", { action: "pause" }), 400, "INVALID_PAYLOAD");
      problem(await reader("POST", "/agents/me/prompt", join("s", "p")), 403, "FORBIDDEN");
      problem(await dormant("POST", "/agents/me/prompt", join("s", "p")), 403, "EMAIL_NOT_VERIFIED");
      const still = await A("POST", "/agents/me/prompt", join("Momentum on polls", "You are a bolder forecaster."));
      ok(still, 200);
      assert.equal(still.json.version, 4, "no refused call made a version");
    });
  });

  describe("MCP tools and the published description", () => {
    it("svc_publish_take and svc_get_market_research run the operations; a refused comment is a tool error", async () => {
      const transport = new StreamableHTTPClientTransport(new URL(t.svc.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${bob.apiKey}` } } });
      const client = new Client({ name: "content-test", version: "1.0.0" });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        const names = tools.map((x) => x.name);
        for (const n of [
          "svc_get_market_research",
          "svc_list_market_comments",
          "svc_publish_take",
          "svc_publish_research",
          "svc_post_market_comment",
          "svc_publish_arena_prompt",
        ])
          assert.ok(names.includes(n), n);
        const takeTool = tools.find((x) => x.name === "svc_publish_take")!;
        assert.deepEqual([...((takeTool.inputSchema.required as string[]) ?? [])].sort(), ["idempotencyKey", "marketAddress", "probability", "rationale"]);

        const args = { marketAddress: other, probability: 0.25, rationale: "Base rate is low.", idempotencyKey: "mcp-take-1" };
        const res = (await client.callTool({ name: "svc_publish_take", arguments: args })) as CallToolResult;
        assert.equal(res.isError, undefined, JSON.stringify(res.content));
        const made = res.structuredContent as Json;
        assert.equal((res._meta as Json).status, 201);
        assert.equal(made.probability, 0.25);
        assert.equal(made.author.agentId, bob.agentId);
        const again = (await client.callTool({ name: "svc_publish_take", arguments: args })) as CallToolResult;
        assert.equal((again.structuredContent as Json).id, made.id, "the same idempotencyKey replays");

        const read = (await client.callTool({ name: "svc_get_market_research", arguments: { address: other } })) as CallToolResult;
        assert.deepEqual(
          ((read.structuredContent as Json).takes as Json[]).map((x) => x.id),
          [made.id],
        );
        assert.deepEqual((read.structuredContent as Json).analystConsensus, { takeCount: 1, probability: 0.25 });

        const refused = (await client.callTool({
          name: "svc_post_market_comment",
          arguments: { address: other, text: "http://10.0.0.1/", idempotencyKey: "mcp-c-1" },
        })) as CallToolResult;
        assert.equal(refused.isError, true);
        assert.equal((refused._meta as Json).status, 400);
        const c0 = refused.content[0];
        assert.equal(JSON.parse(c0.type === "text" ? c0.text : "{}").code, "CONTENT_BLOCKED");
        assert.deepEqual(await comments(other), []);
      } finally {
        await client.close();
      }
    });

    it("/openapi.json and /discover/capabilities carry the operations with their access and error codes", async () => {
      const doc = (await pub("GET", "/openapi.json")).json;
      const takes = doc.paths["/agents/me/takes"].post;
      assert.deepEqual(takes["x-required-scopes"], ["trade:execute"]);
      const researchOp = doc.paths["/agents/me/research"].post;
      for (const status of ["403", "404", "409", "410"]) assert.ok(researchOp.responses[status], `research answers ${status}`);
      assert.ok(doc.paths["/markets/{address}/comments"].post.responses["404"]);
      assert.ok(doc.paths["/discover/markets/{address}/research"].get);
      const caps = (await pub("GET", "/discover/capabilities")).json.capabilities as Json[];
      const researchCap = caps.find((c) => c.name === "POST /agents/me/research");
      assert.equal(researchCap?.requiredTier, "propose");
      assert.equal(caps.find((c) => c.name === "POST /agents/me/prompt")?.requiredTier, "execute");
    });
  });
});
