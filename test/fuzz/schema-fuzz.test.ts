/**
 * Schema fuzz of every registry operation, over REST (real HTTP) and MCP (the SDK client against /mcp): cases come from
 * each operation's own zod schemas (./cases.ts), valid and mutated. Every answer must be below 500; every refusal an
 * application/problem+json with a code docs/errors.md lists (at its documented status); a refused write must leave the
 * journal and the service tables as they were (./state.ts). Prints the cases per operation and one summary line
 * {"bench":"fuzz",...}. FUZZ_RUNS (REST cases per operation, default 8), FUZZ_MCP_RUNS (default 4) and FUZZ_SEED (a number, or "random"; default a fixed seed)
 * (printed) bound and replay a run.
 */
import { strict as assert } from "node:assert";
import { randomInt, randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import type { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { OPERATIONS } from "../../api/operations";
import { MAX_CHAIN_ID } from "../../api/platform/schemas/chain-id";
import type { AnyOperation } from "../../api/registry/types";
import { stopTestService } from "../support/service";
import { mcpCases, restBody, restCases, restUrl, type McpCase, type RestCase } from "./cases";
import { startFixture, type Fixture } from "./fixture";
import { problemDefect } from "./problems";
import { changedTables, snapshot, type Snapshot } from "./state";

const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const MCP_RUNS = Number(process.env.FUZZ_MCP_RUNS ?? 4);
// CI runs one fixed seed, so a red run reproduces; FUZZ_SEED=random explores (each defect found gets fixed and stays covered).
const SEED = process.env.FUZZ_SEED === "random" ? randomInt(2 ** 31) : Number(process.env.FUZZ_SEED ?? 1_761_147_457);
/** A file to follow a run in (the test runner shows output only at the end). */
const TRACE = process.env.FUZZ_TRACE;
const trace = (line: string) => TRACE && appendFileSync(TRACE, `${line}\n`);

/** Every schema named `chainId` inside a request part (objects, arrays, optional and nullable wrappers), with its path. */
function chainIdFields(schema: unknown, path: string, out: [string, z.ZodType][] = []): [string, z.ZodType][] {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def) return out;
  if (def.type === "object")
    for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
      if (key === "chainId") out.push([`${path}.${key}`, field]);
      else chainIdFields(field, `${path}.${key}`, out);
    }
  else if (def.type === "array") chainIdFields(def.element, `${path}[]`, out);
  else if (def.type === "optional" || def.type === "nullable" || def.type === "default") chainIdFields(def.innerType, path, out);
  else if (def.type === "pipe") chainIdFields(def.in, path, out);
  else if (def.type === "union") for (const o of def.options as unknown[]) chainIdFields(o, path, out);
  return out;
}

/**
 * 503s this fixture causes and the contract documents: it runs no chain, so no USDC is deployed and a well-formed PM
 * purchase is answered `503 SERVICE_UNAVAILABLE` (docs/pm-purchase.md; the contract lists it for POST /pm/buy). Found by
 * random seeds 732215871 and 321217126, the first to send a valid purchase body. Matched on the answer's detail, so a
 * 503 of another cause on the same operation (the database failing, say) is still a defect.
 */
const UNAVAILABLE_HERE: Readonly<Record<string, RegExp>> = { buyPm: /^no USDC is deployed on chain \d+/ };

/** Whether a 5xx answer is one the fixture's missing parts cause and the contract documents (UNAVAILABLE_HERE). */
function unavailableHere(op: AnyOperation, status: number, body: unknown): boolean {
  const expected = UNAVAILABLE_HERE[op.id];
  const problem = body as { code?: unknown; detail?: unknown } | null;
  return (
    status === 503 && expected !== undefined && problem?.code === "SERVICE_UNAVAILABLE" && typeof problem.detail === "string" && expected.test(problem.detail)
  );
}

interface Tally {
  rest: number;
  mcp: number;
  ok: number;
  refused: number;
}

const clip = (v: unknown, n = 300) => {
  const s = typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
  return s.length > n ? `${s.slice(0, n)}...(${s.length})` : s;
};

describe("schema fuzz of every registry operation (REST and MCP)", () => {
  let f: Fixture;
  let mcp: Client;
  const defects: string[] = [];
  const tallies = new Map<string, Tally>();
  let fiveXx = 0;
  let writesChecked = 0;

  before(async () => {
    f = await startFixture();
    mcp = new Client({ name: "fuzz", version: "1" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", f.t.svc.baseUrl), { requestInit: { headers: { authorization: `Bearer ${f.agent.apiKey}` } } }),
    );
    // Listing the tools makes the client check each structured result against the tool's output schema.
    await mcp.listTools();
  });
  after(async () => {
    await mcp?.close();
    if (f) await stopTestService(f.t);
  });

  /** The tables once background work started by a success (journal batches, deliveries) has settled. */
  async function settled(): Promise<Snapshot> {
    let last = await snapshot(f.t.svc.ctx.db);
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 10));
      const next = await snapshot(f.t.svc.ctx.db);
      if (changedTables(last, next).length === 0) return next;
      last = next;
    }
    return last;
  }

  /** Checks one answer; returns the state after it (for the next write's "before"). */
  async function check(
    op: AnyOperation,
    surface: string,
    what: string,
    status: number,
    contentType: string | null,
    body: unknown,
    before: Snapshot | null,
  ): Promise<Snapshot | null> {
    const tally = tallies.get(op.id)!;
    const where = `${surface} ${op.id} ${what} -> ${status} ${clip(body)}`;
    if (status >= 500 && !unavailableHere(op, status, body)) {
      fiveXx++;
      defects.push(`5xx: ${where}`);
    }
    if (status >= 400) {
      tally.refused++;
      const bad = problemDefect(status, contentType, body);
      if (bad) defects.push(`problem (${bad}): ${where}`);
    } else tally.ok++;
    if (before === null) return null;
    if (status < 400) return settled();
    const now = await snapshot(f.t.svc.ctx.db);
    writesChecked++;
    const changed = changedTables(before, now);
    if (changed.length > 0) defects.push(`refused write changed ${changed.join(", ")}: ${where}`);
    return now;
  }

  async function restCase(op: AnyOperation, c: RestCase, before: Snapshot | null): Promise<Snapshot | null> {
    const url = restUrl(op, c);
    trace(`  rest ${c.change} ${clip(url, 120)}`);
    const body = restBody(op, c);
    const headers: Record<string, string> = { authorization: `Bearer ${f.agent.apiKey}` };
    if (op.method !== "GET") headers["idempotency-key"] = randomUUID();
    if (body) headers["content-type"] = body.contentType;
    const what = `${c.change} ${op.method} ${clip(url, 200)} ${body ? clip(body.text, 200) : ""}`;
    let res: Response;
    let text: string;
    try {
      const send = () => fetch(new URL(url, f.t.svc.baseUrl), { method: op.method, headers, body: body?.text });
      // One retry: a pooled connection the server closed after an earlier answer (431 closes it) can reset once.
      res = await send().catch(() => send());
      text = await res.text();
    } catch (err) {
      // No answer at all (the connection was dropped) is as bad as a 5xx.
      fiveXx++;
      defects.push(`no answer (${String((err as Error & { cause?: unknown }).cause ?? err)}): rest ${op.id} ${what}`);
      return before === null ? null : snapshot(f.t.svc.ctx.db);
    }
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {}
    return check(op, "rest", what, res.status, res.headers.get("content-type"), json, before);
  }

  async function mcpCase(op: AnyOperation, tool: string, c: McpCase, before: Snapshot | null): Promise<Snapshot | null> {
    const what = `${c.change} ${tool}(${clip(c.args, 300)})`;
    trace(`  mcp ${clip(what, 160)}`);
    let result: Awaited<ReturnType<Client["callTool"]>>;
    try {
      result = await mcp.callTool({ name: tool, arguments: c.args });
    } catch (err) {
      // A JSON-RPC error (the transport or the client refused the answer) is not an answer with a status.
      defects.push(`mcp error: mcp ${op.id} ${what}: ${(err as Error).message.slice(0, 300)}`);
      return before === null ? null : snapshot(f.t.svc.ctx.db);
    }
    const status = Number((result._meta as { status?: unknown } | undefined)?.status ?? (result.isError ? 0 : 200));
    const text = (result.content as { type: string; text?: string }[] | undefined)?.[0]?.text ?? "";
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {}
    if (result.isError && status < 400) defects.push(`mcp tool error with status ${status}: ${op.id} ${what} ${clip(text)}`);
    return check(op, "mcp", what, status, result.isError ? "application/problem+json" : "application/json", json, before);
  }

  it(`answers every case of every operation without a 5xx, with documented problems, changing nothing when it refuses (seed ${SEED})`, async () => {
    const started = performance.now();
    for (const op of OPERATIONS) {
      trace(`${Math.round(performance.now() - started)} ms ${op.id}`);
      tallies.set(op.id, { rest: 0, mcp: 0, ok: 0, refused: 0 });
      const write = op.method !== "GET";
      const rest = fc.sample(restCases(op, f.hints), { numRuns: RUNS, seed: SEED });
      let state: Snapshot | null = write ? await settled() : null;
      for (const c of rest) {
        state = await restCase(op, c, state);
        tallies.get(op.id)!.rest++;
      }
      if (!op.mcpTool) continue;
      const { cases } = mcpCases(op, f.hints);
      state = write ? await settled() : null;
      for (const c of fc.sample(cases, { numRuns: MCP_RUNS, seed: SEED })) {
        state = await mcpCase(op, op.mcpTool, c, state);
        tallies.get(op.id)!.mcp++;
      }
    }
    for (const [id, t] of tallies) console.log(JSON.stringify({ fuzz: id, ...t }));
    const all = [...tallies.values()];
    const summary = {
      bench: "fuzz",
      seed: SEED,
      operations: tallies.size,
      cases: all.reduce((n, t) => n + t.rest + t.mcp, 0),
      restCases: all.reduce((n, t) => n + t.rest, 0),
      mcpCases: all.reduce((n, t) => n + t.mcp, 0),
      refused: all.reduce((n, t) => n + t.refused, 0),
      refusedWritesChecked: writesChecked,
      fiveXx,
      defects: defects.length,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    console.log(JSON.stringify(summary));
    for (const d of defects) trace(`DEFECT ${d.slice(0, 600)}`);
    assert.equal(tallies.size, OPERATIONS.length);
    assert.deepEqual(defects.slice(0, 25), [], `${defects.length} defects (seed ${SEED})`);
  });

  it("bounds every chain id a request takes by the catalog's int4 column, so a larger one is a 400, never a query's 500", () => {
    const unbounded: string[] = [];
    let checked = 0;
    for (const op of OPERATIONS as readonly AnyOperation[])
      for (const part of ["params", "query", "body"] as const) {
        // A query or path value arrives as text; a body's as a JSON number.
        const tooLarge = part === "body" ? MAX_CHAIN_ID + 1 : String(MAX_CHAIN_ID + 1);
        const largest = part === "body" ? MAX_CHAIN_ID : String(MAX_CHAIN_ID);
        for (const [path, field] of chainIdFields(op.request[part], `${op.id} ${part}`)) {
          checked++;
          if (field.safeParse(tooLarge).success || !field.safeParse(largest).success) unbounded.push(path);
        }
      }
    assert.ok(checked >= 5, `chain ids found in requests: ${checked}`);
    assert.deepEqual(unbounded, []);
  });

  it("answers the cases the fuzz found failing with problems (each was a 500, a bare status or a JSON-RPC error)", async () => {
    const get = async (path: string) => {
      const res = await fetch(new URL(path, f.t.svc.baseUrl), { headers: { authorization: `Bearer ${f.agent.apiKey}` } });
      return { status: res.status, contentType: res.headers.get("content-type"), json: (await res.json()) as Record<string, unknown> };
    };
    // A chain id past the catalog's int4 column reached the query (500).
    const chain = await get(`/api/agent/v1/discover/market-states?marketAddress=${f.orderbookMarket}&chainId=1774598000565829`);
    assert.equal(chain.status, 400, JSON.stringify(chain.json));
    assert.equal(problemDefect(chain.status, chain.contentType, chain.json), null);
    // The same in a body: a sweep of a market named with such a chain id (seed 703483966).
    const sweep = await fetch(new URL("/api/agent/v1/sweep/execute", f.t.svc.baseUrl), {
      method: "POST",
      headers: { authorization: `Bearer ${f.agent.apiKey}`, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ marketAddress: f.orderbookMarket, chainId: 4_084_592_596_916_130 }),
    });
    const swept = (await sweep.json()) as Record<string, unknown>;
    assert.equal(sweep.status, 400, JSON.stringify(swept));
    assert.equal(swept.code, "INVALID_PAYLOAD");
    // A NUL in a path (%00) was refused (400) but the call record kept the decoded path, which the database refused:
    // the answer became 503 (seed 516759774, over MCP, whose tools carry ids in the path). Over REST and over MCP:
    const nulPath = await fetch(new URL("/api/agent/v1/negotiate/%00%00/prepare-deploy", f.t.svc.baseUrl), {
      method: "POST",
      headers: { authorization: `Bearer ${f.agent.apiKey}`, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: "{}",
    });
    assert.equal(nulPath.status, 400, await nulPath.text());
    const nulTool = await mcp.callTool({ name: "svc_negotiate_prepare_deploy", arguments: { id: "\u0000".repeat(1000), idempotencyKey: randomUUID() } });
    assert.equal(nulTool.isError, true);
    assert.equal((JSON.parse((nulTool.content as { text: string }[])[0]!.text) as { code: string }).code, "INVALID_PAYLOAD");
    // A request line over Node's 16 KiB header limit got a bare 431 from the HTTP server.
    const long = await get(`/api/agent/v1/time?q=${"a".repeat(20_000)}`);
    assert.equal(long.status, 431);
    assert.equal(long.json.code, "HEADERS_TOO_LARGE");
    assert.equal(problemDefect(long.status, long.contentType, long.json), null);
    // An unlisted market with the indexer off asked the absent projection (503).
    const quote = await fetch(new URL("/api/agent/v1/trade/quote", f.t.svc.baseUrl), {
      method: "POST",
      headers: { authorization: `Bearer ${f.agent.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ market: `0x${"ab".repeat(20)}`, outcome: 0, side: "buy", shares: "1000000" }),
    });
    assert.equal(quote.status, 404);
    assert.equal(((await quote.json()) as { code: string }).code, "MARKET_NOT_FOUND");
    // An MCP idempotencyKey that is no header value failed the internal request (JSON-RPC -32603).
    const r = await mcp.callTool({ name: "svc_cancel_all_orders", arguments: { idempotencyKey: "clé-🙂" } });
    assert.equal(r.isError, true);
    const p = JSON.parse((r.content as { text: string }[])[0]!.text) as { code: string; errors: { field: string }[] };
    assert.equal(p.code, "INVALID_PAYLOAD");
    assert.deepEqual(
      p.errors.map((e) => e.field),
      ["idempotencyKey"],
    );
  });

  it("answers a body over the documented limit with a 413 problem, with or without Content-Length, and changes nothing", async () => {
    const send = async (path: string, bytes: number, chunked: boolean) => {
      const text = `{"x":"${"a".repeat(bytes - 8)}"}`;
      assert.equal(Buffer.byteLength(text), bytes);
      const bodyOf = () =>
        chunked
          ? new ReadableStream({
              start(ctrl) {
                const enc = new TextEncoder().encode(text);
                for (let i = 0; i < enc.length; i += 64_000) ctrl.enqueue(enc.subarray(i, i + 64_000));
                ctrl.close();
              },
            })
          : text;
      const post = () =>
        fetch(new URL(path, f.t.svc.baseUrl), {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${f.agent.apiKey}`, "idempotency-key": randomUUID() },
          body: bodyOf(),
          duplex: "half",
        } as RequestInit);
      // The 413 is answered before the upload ends; on a loaded machine the client can see the closed socket first.
      const res = await post().catch(() => post());
      return { status: res.status, contentType: res.headers.get("content-type"), json: (await res.json()) as Record<string, unknown> };
    };
    const before = await settled();
    let checked = 0;
    for (const op of OPERATIONS.filter((o) => o.method === "POST" && !/\{/.test(o.path))) {
      const path = restUrl(op, { valid: true, change: "none", params: {}, query: {}, body: undefined });
      for (const chunked of [false, true]) {
        const r = await send(path, 1_000_001, chunked);
        assert.equal(r.status, 413, `${op.id} ${chunked ? "chunked" : "with length"}: ${JSON.stringify(r.json).slice(0, 200)}`);
        assert.equal(problemDefect(r.status, r.contentType, r.json), null);
        assert.equal(r.json.code, "PAYLOAD_TOO_LARGE");
        assert.equal(r.json.limit, 1_000_000);
        checked++;
      }
      // At the limit the body is read and judged on its content.
      assert.notEqual((await send(path, 1_000_000, false)).status, 413, op.id);
    }
    const mcpOver = await send("/mcp", 1_100_001, true);
    assert.equal(mcpOver.status, 413);
    assert.equal(mcpOver.json.limit, 1_100_000);
    assert.notEqual((await send("/mcp", 1_000_500, false)).status, 413, "the MCP envelope has its own, larger limit");
    // An at-limit body is read and judged: POST /api/auth/nonce ignores its body and issues a nonce (a write that is
    // not a refusal); nothing else may have changed.
    assert.deepEqual(
      changedTables(before, await snapshot(f.t.svc.ctx.db)).filter((t) => t !== "api_nonces"),
      [],
    );
    console.log(JSON.stringify({ bench: "fuzz-body-limit", operations: checked / 2, cases: checked + 2, limitBytes: 1_000_000, mcpLimitBytes: 1_100_000 }));
  });
});
