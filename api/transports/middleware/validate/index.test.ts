import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import { serveMiddleware, type ServedApp } from "../../../../test/support/middleware";
import { defineOperation } from "../../../registry/types";
import { validate } from "./index";

/** An operation with every kind of input: a path param, a strict query and a JSON body. */
const echo = defineOperation({
  id: "echoInput",
  method: "POST",
  path: "/things/{id}",
  summary: "echo",
  category: "test",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: false,
  idempotency: "exempt",
  request: {
    params: z.object({ id: z.string().regex(/^\d+$/) }),
    query: z.strictObject({ limit: z.coerce.number().int().min(1).max(10).optional() }),
    body: z.object({ size: z.string().regex(/^\d+$/), note: z.string().optional() }),
  },
  response: z.unknown(),
  mcpTool: null,
  async handler() {
    return null;
  },
});

describe("validate middleware", () => {
  let s: ServedApp;
  before(async () => {
    s = await serveMiddleware((app) => {
      app.post("/things/:id", validate(echo), (c) => c.json({ input: c.var.input, rawInput: c.var.rawInput }));
    });
  });
  after(() => s.close());

  const post = (path: string, body: string, contentType = "application/json") =>
    s.call(path, { method: "POST", headers: { "content-type": contentType }, body });
  const problem = async (res: Response) => (await res.json()) as { code: string; errors?: { field: string; location: string }[]; field?: string };

  it("hands the parsed input and the input as sent to the handler", async () => {
    const res = await post("/things/7?limit=3", JSON.stringify({ size: "100" }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      input: { params: { id: "7" }, query: { limit: 3 }, body: { size: "100" } },
      rawInput: { params: { id: "7" }, query: { limit: "3" }, body: { size: "100" } },
    });
  });

  it("refuses a NUL character in any string (the database's text cannot hold it), naming each field, before the schemas", async () => {
    const res = await post("/things/7?limit=%00", JSON.stringify({ size: "1", note: "a\u0000b", deep: [{ ["k\u0000"]: "x" }] }));
    assert.equal(res.status, 400);
    const body = await problem(res);
    assert.equal(body.code, "INVALID_PAYLOAD");
    assert.deepEqual((body.errors ?? []).map((e) => `${e.location}:${e.field}`).sort(), ["body:deep.0.(key)", "body:note", "query:limit"]);
    const fine = await post("/things/7", JSON.stringify({ size: "1", note: "a\u0001b" }));
    assert.equal(fine.status, 200, "other control characters are the schemas' business");
  });

  it("refuses bad params, query and body at once, naming each field and where it was", async () => {
    const res = await post("/things/x?limit=99&extra=1", JSON.stringify({ size: 5 }));
    assert.equal(res.status, 400);
    const body = await problem(res);
    assert.equal(body.code, "INVALID_PAYLOAD");
    const named = (body.errors ?? []).map((e) => `${e.location}:${e.field}`);
    for (const want of ["params:id", "query:limit", "body:size"]) assert.ok(named.includes(want), `${want} in ${named.join(", ")}`);
    assert.ok(
      named.some((n) => n.startsWith("query:") && n.includes("extra")),
      `the unknown query property is named: ${named.join(", ")}`,
    );
  });

  it("answers malformed JSON with INVALID_PAYLOAD and a body that is not JSON with 415", async () => {
    const malformed = await post("/things/1", "{not json");
    assert.equal(malformed.status, 400);
    assert.equal((await problem(malformed)).code, "INVALID_PAYLOAD");
    const text = await post("/things/1", "size=1", "text/plain");
    assert.equal(text.status, 415);
    assert.equal((await problem(text)).code, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("reads an empty body as {} (so the body schema decides what is required)", async () => {
    const res = await post("/things/1", "");
    assert.equal(res.status, 400);
    assert.ok((await problem(res)).errors?.some((e) => e.location === "body" && e.field === "size"));
  });
});
