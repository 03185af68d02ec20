import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { AgentCard } from "@a2a-js/sdk";
import type { RunningService } from "../../service";
import { systemClock, type Clock } from "../../../relayer/clock";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { CHAIN_EXTENSION_URI, MCP_EXTENSION_URI } from "./card";

describe("A2A agent card", () => {
  let svc: RunningService;
  let t: TestService<Clock>;
  before(async () => {
    t = await startTestService({ CHAIN_ID: "8453" }, { clock: systemClock });
    svc = t.svc;
  });
  after(async () => {
    await stopTestService(t);
  });

  it("names a provider.url that answers 200 with where the API and its documents are", async () => {
    const card = (await (await fetch(new URL("/.well-known/agent-card.json", svc.baseUrl))).json()) as { provider: { url: string } };
    const res = await fetch(card.provider.url);
    assert.equal(res.status, 200);
    const home = (await res.json()) as { apiBaseUrl: string; documents: Record<string, string> };
    assert.equal(home.apiBaseUrl, svc.baseUrl);
    assert.equal(home.documents.agentCard, new URL("/.well-known/agent-card.json", svc.baseUrl).href);
    assert.equal(home.documents.mcp, svc.mcpUrl);
  });

  it("serves a discovery-only card with the required fields, chain 8453, REST and MCP urls, skills per category", async () => {
    const res = await fetch(new URL("/.well-known/agent-card.json", svc.baseUrl));
    assert.equal(res.status, 200);
    const json = (await res.json()) as Record<string, unknown>;
    for (const field of ["name", "description", "version", "supportedInterfaces", "capabilities", "defaultInputModes", "defaultOutputModes", "skills"]) {
      assert.ok(json[field] !== undefined && json[field] !== "", `required field ${field}`);
    }
    // The wire form reads back into the SDK's AgentCard type unchanged.
    const card = AgentCard.fromJSON(json);
    assert.deepEqual(AgentCard.toJSON(card), json);
    assert.equal(card.capabilities?.streaming, false);
    assert.equal(card.capabilities?.pushNotifications, false);
    assert.deepEqual(
      card.supportedInterfaces.map((i) => [i.url, i.protocolBinding]),
      [[svc.baseUrl, "HTTP+JSON"]],
    );
    const ext = Object.fromEntries((card.capabilities?.extensions ?? []).map((e) => [e.uri, e.params]));
    assert.deepEqual(ext[CHAIN_EXTENSION_URI], { supportedChains: [8453] });
    assert.equal(ext[MCP_EXTENSION_URI]?.url, svc.mcpUrl);
    const categories = [...new Set(svc.registry.operations.map((o) => o.category))].sort();
    assert.deepEqual(
      card.skills.map((s) => s.id),
      categories,
    );
    for (const s of card.skills) {
      assert.ok(s.name && s.description && s.tags.length > 0 && s.examples.length > 0, `skill ${s.id}`);
    }
    assert.deepEqual(Object.keys(card.securitySchemes).sort(), ["apiKeyHeader", "bearerAuth"]);
  });
});
