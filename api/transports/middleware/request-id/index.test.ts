import { strict as assert } from "node:assert";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { Hono } from "hono";
import pino from "pino";
import { responseHeaders } from "../response-headers";
import { requestId } from "./index";

/** An app whose access log is captured as parsed pino lines. */
function appWithLog() {
  const lines: { level: number; status: number; requestId: string }[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const log = pino({ level: "debug" }, sink);
  const app = new Hono();
  app.use(responseHeaders());
  app.use(requestId({ log, now: () => 0 }));
  app.get("/ok", (c) => c.text("ok"));
  app.get("/missing", (c) => c.text("no", 404));
  app.get("/boom", (c) => c.text("boom", 500));
  app.post("/write", (c) => c.text("done", 201));
  return { app, lines };
}

describe("request-id middleware", () => {
  it("echoes a sane client id and replaces an unsafe one", async () => {
    const { app } = appWithLog();
    assert.equal((await app.request("/ok", { headers: { "x-request-id": "abc-123" } })).headers.get("x-request-id"), "abc-123");
    const replaced = (await app.request("/ok", { headers: { "x-request-id": "bad id\n" } })).headers.get("x-request-id");
    assert.match(replaced ?? "", /^[0-9a-f-]{36}$/);
  });

  it("logs successful reads at debug, writes and client errors at info, server errors at warn", async () => {
    const { app, lines } = appWithLog();
    for (const [path, method] of [
      ["/ok", "GET"],
      ["/write", "POST"],
      ["/missing", "GET"],
      ["/boom", "GET"],
    ] as const) {
      await app.request(path, { method, headers: { "x-request-id": `${method}-${path.slice(1)}` } });
    }
    const levelOf = (id: string) => lines.find((l) => l.requestId === id)?.level;
    assert.equal(levelOf("GET-ok"), pino.levels.values.debug);
    assert.equal(levelOf("POST-write"), pino.levels.values.info);
    assert.equal(levelOf("GET-missing"), pino.levels.values.info);
    assert.equal(levelOf("GET-boom"), pino.levels.values.warn);
  });
});
