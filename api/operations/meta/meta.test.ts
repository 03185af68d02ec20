import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import type { RunningService } from "../../service";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { manualClock, type Clock } from "../../../relayer/clock";
import { Registry } from "../../registry/registry";
import { defineOperation } from "../../registry/types";
import { agentCapabilitySchema } from "../../registry/capabilities";
import { creatorCapacityOf } from "./creator-capacity";

describe("meta operations over real HTTP", () => {
  let svc: RunningService;
  let t: TestService<Clock>;
  before(async () => {
    t = await startTestService({}, { clock: manualClock(1_800_000_000_000) });
    svc = t.svc;
  });
  after(async () => {
    await stopTestService(t);
  });

  it("GET /discover/capabilities lists one AgentCapability per registry operation", async () => {
    const res = await fetch(`${svc.baseUrl}/discover/capabilities`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { version: string; capabilities: unknown[] };
    const caps = body.capabilities.map((c) => agentCapabilitySchema.strict().parse(c));
    assert.equal(caps.length, svc.registry.operations.length);
    const time = caps.find((c) => c.name === "GET /time");
    assert.deepEqual(time, {
      name: "GET /time",
      category: "system",
      requiredTier: "read-only",
      description: "Server time in Unix epoch milliseconds",
      method: "GET",
      path: "/time",
      idempotent: true,
      surface: "agent",
    });
    assert.equal(new Set(caps.map((c) => c.name)).size, caps.length);
    assert.equal(body.version, "2026-11-01");
  });

  it("GET /catalog.json lists the operations, MCP, agent card, creator capacity, and every document URL answers", async () => {
    const res = await fetch(`${svc.baseUrl}/catalog.json`);
    assert.equal(res.status, 200);
    const cat = (await res.json()) as {
      operations: { id: string; mcpTool: string | null }[];
      documents: Record<string, string>;
      mcp: { url: string; toolCount: number; install: Record<string, { snippet: string }> };
      agentCardUrl: string;
      creatorCapacity: { status: string; limits: Record<string, number> };
    };
    assert.deepEqual(
      cat.operations.map((o) => o.id),
      svc.registry.operations.map((o) => o.id),
    );
    assert.equal(cat.mcp.url, svc.mcpUrl);
    assert.equal(cat.mcp.toolCount, svc.registry.operations.filter((o) => o.mcpTool).length);
    assert.deepEqual(Object.keys(cat.mcp.install).sort(), ["claude-code", "claude-desktop", "codex", "cursor"]);
    assert.ok(cat.mcp.install["claude-code"].snippet.includes(svc.mcpUrl));
    assert.equal(cat.agentCardUrl, cat.documents.agentCard);
    assert.ok(["open", "closed"].includes(cat.creatorCapacity.status));
    assert.ok(cat.creatorCapacity.limits.newCreatorConcurrentMarkets > 0);
    for (const [name, url] of Object.entries(cat.documents)) {
      const r = await fetch(url, name === "mcp" ? { method: "POST", headers: { "content-type": "application/json" }, body: "{}" } : {});
      // The MCP endpoint answers 401 without a key; every other document answers 200.
      assert.equal(r.status, name === "mcp" ? 401 : 200, `${name} ${url}`);
      await r.arrayBuffer();
    }
  });

  it("GET /docs is the interactive reference pointing at the OpenAPI document", async () => {
    for (const path of ["/docs", "/api/agent/v1/docs"]) {
      const res = await fetch(new URL(path, svc.baseUrl));
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /text\/html/);
      assert.match(await res.text(), /\/api\/agent\/v1\/openapi\.json/);
    }
  });

  it("creator capacity is open only once the registry serves an operation needing markets:create and slots are left", () => {
    const base = {
      category: "creation",
      tier: "execute",
      rateClass: "write",
      charged: true,
      idempotency: "required",
      request: {},
      response: z.object({}),
      mcpTool: null,
      handler: async () => ({}),
      permission: "api-key-execute",
    } as const;
    const propose = defineOperation({ ...base, id: "propose", method: "POST", path: "/negotiate/propose", summary: "p", scopes: ["markets:propose"] });
    const deploy = defineOperation({ ...base, id: "deploy", method: "POST", path: "/negotiate/commit-deploy", summary: "d", scopes: ["markets:create"] });
    const slots = { limit: 10, occupied: 3, available: 7 };
    const closed = creatorCapacityOf(new Registry([propose]), slots);
    assert.equal(closed.status, "closed");
    assert.deepEqual(closed.proposeOperations, ["POST /negotiate/propose"]);
    const open = creatorCapacityOf(new Registry([propose, deploy]), slots);
    assert.equal(open.status, "open");
    assert.deepEqual(open.createOperations, ["POST /negotiate/commit-deploy"]);
    assert.deepEqual(open.slots, { ...slots, unlimited: false });
    assert.equal(
      creatorCapacityOf(new Registry([propose, deploy]), { limit: 0, occupied: 0, available: 0 }).status,
      "closed",
      "limit 0 closes public creation",
    );
  });
});
