/**
 * The /mcp DNS-rebinding guard (security review: /mcp accepted any Origin and Host). Over real HTTP: a Host that is not
 * a name of the service, or a browser Origin of another site, is refused 403 before the key is even read; the
 * service's own names, PUBLIC_URL's name, no Origin (agents) and MCP_ALLOWED_ORIGINS pass.
 */
import { strict as assert } from "node:assert";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../../config";
import { createLocalAgent } from "../../domain/auth/local-agents";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { hostGuard } from "./host-guard";

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

/** POST /mcp with exactly these headers (node:http lets a test set Host, which fetch does not). */
function post(port: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(INIT);
  });
}

describe("hostGuard", () => {
  const refuses = (g: ReturnType<typeof hostGuard>, host: string | undefined, origin?: string) =>
    assert.throws(() => g.check(host, origin), /FORBIDDEN|not a name|may not call/);
  it("loopback binding: loopback names on any port, no foreign Host or Origin", () => {
    const g = hostGuard(loadConfig({}));
    for (const h of ["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "LOCALHOST"]) g.check(h, undefined);
    g.check("127.0.0.1:8080", "http://localhost:3000");
    refuses(g, "evil.example:8080");
    refuses(g, undefined);
    refuses(g, "127.0.0.1.evil.example");
    refuses(g, "127.0.0.1:8080", "https://evil.example");
    refuses(g, "127.0.0.1:8080", "null");
  });
  it("PUBLIC_URL's name and MCP_ALLOWED_ORIGINS pass; an outside binding does not add loopback", () => {
    const g = hostGuard(loadConfig({ HOST: "10.0.0.5", PUBLIC_URL: "https://api.example.org", MCP_ALLOWED_ORIGINS: "http://inspector.test:6274" }));
    g.check("api.example.org", "https://api.example.org");
    g.check("10.0.0.5:8080", undefined);
    g.check("api.example.org", "http://inspector.test:6274");
    refuses(g, "localhost:8080");
    refuses(g, "api.example.org", "http://inspector.test:9999");
  });
});

describe("/mcp over HTTP", () => {
  let t: TestService;
  let key: string;
  let port: number;
  before(async () => {
    t = await startTestService();
    key = (await createLocalAgent(t.svc.ctx.db, t.clock, { name: "mcp-guard" })).apiKey;
    port = Number(new URL(t.svc.baseUrl).port);
  });
  after(async () => stopTestService(t));

  it("refuses a rebinding Host and a foreign Origin with 403 problems, before authentication", async () => {
    const foreign: Record<string, string>[] = [{ host: `evil.example:${port}` }, { host: `127.0.0.1:${port}`, origin: "https://evil.example" }];
    for (const headers of foreign) {
      for (const auth of [{ authorization: `Bearer ${key}` }, {}] as Record<string, string>[]) {
        const r = await post(port, { ...headers, ...auth });
        assert.equal(r.status, 403, r.body);
        const p = JSON.parse(r.body);
        assert.equal(p.code, "FORBIDDEN");
        assert.match(p.reason, /^(HOST|ORIGIN)_NOT_ALLOWED$/);
      }
    }
  });

  it("answers its own names, with or without a same-host browser Origin", async () => {
    const own: Record<string, string>[] = [{ host: `127.0.0.1:${port}` }, { host: `localhost:${port}`, origin: `http://localhost:${port}` }];
    for (const headers of own) {
      const r = await post(port, { ...headers, authorization: `Bearer ${key}` });
      assert.equal(r.status, 200, r.body);
      assert.equal(JSON.parse(r.body).result.protocolVersion, "2025-11-25");
    }
  });
});
