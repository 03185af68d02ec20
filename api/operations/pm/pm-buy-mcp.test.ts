/**
 * svc_buy_pm: POST /pm/buy as an MCP tool (x402 over MCP, docs/mcp.md "Paying over MCP"), with the SDK's Client over
 * real HTTP, a real Hardhat node on chain 8453 with the test USDC at Base's address, and a payment signed by @x402/evm
 * on its defaults (the client reads the PaymentRequired from the tool error's structured content, as x402's MCP
 * transport says). The 402 carries the requirements REST answers with; the payment goes in as the `payment` argument
 * (object or base64) or `_meta["x402/payment"]`; the settlement comes back in `_meta["x402/payment-response"]`; the
 * idempotent replay, the reused nonce, malformed payments and the region rule answer as REST does, changing nothing.
 */
import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, SettleResponse } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { type createPublicClient, getAddress, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { COLLATERAL_ASSET } from "../../../decoder/assets";
import { testUSDCAbi } from "../../../generated/abis";
import { DEV_TREASURY_ADDRESS } from "../../../relayer/dev-accounts";
import { fundUsdc } from "../../../relayer/dev-usdc";
import { BASE_USDC, startBaseLikeService, type BaseLikeService } from "../../../test/support/base-like-service";
import type { Json, TestService } from "../../../test/support/service";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";

const PRICE = 1_000_000n; // the 1,000 PM bundle: $1.00, within the default client's $1 cap
const BUNDLE_PM = 1_000n * 1_000_000n;
const FILLS = 500;

type Result = CallToolResult & { structuredContent?: Json };

describe("svc_buy_pm: x402 over MCP (SDK client, @x402/evm defaults, chain 8453)", () => {
  let stack: BaseLikeService | undefined;
  let t: TestService;
  let client: ReturnType<typeof createPublicClient>;
  let buyer: LocalAgent;
  let mcp: Client;
  const clients: Client[] = [];

  const connect = async (headers: Record<string, string> = {}) => {
    const c = new Client({ name: "pm-buy-mcp", version: "1" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", t.svc.baseUrl), { requestInit: { headers: { authorization: `Bearer ${buyer.apiKey}`, ...headers } } }),
    );
    await c.listTools(); // from here the client checks every structured result against the tool's output schema
    clients.push(c);
    return c;
  };
  const buy = (args: Record<string, unknown>, opts: { via?: Client; meta?: Record<string, unknown> } = {}) =>
    (opts.via ?? mcp).callTool({ name: "svc_buy_pm", arguments: { pm: 1_000, ...args }, ...(opts.meta ? { _meta: opts.meta } : {}) }) as Promise<Result>;
  const statusOf = (r: Result) => (r._meta as { status: number }).status;
  const problemOf = (r: Result) => JSON.parse((r.content[0] as { text: string }).text) as Json;
  const usdcOf = (who: Address) => client.readContract({ address: BASE_USDC, abi: testUSDCAbi, functionName: "balanceOf", args: [who] });
  const x402 = () => registerExactEvmScheme(new x402Client(), { signer: privateKeyToAccount(buyer.walletPrivateKey!) });
  const account = () => buyer.ledgerAccount.toLowerCase() as Address;
  /** Everything a refused call must leave as it was. */
  const snapshot = async () => ({
    payer: await usdcOf(getAddress(buyer.walletAddress)),
    treasury: await usdcOf(DEV_TREASURY_ADDRESS),
    pm: t.svc.services.venue!.exchange.engine.balance(account(), COLLATERAL_ASSET).total,
    journal: t.svc.services.venue!.exchange.nextSeq,
    rows: Number((await t.svc.ctx.db.query<{ n: string }>(`SELECT count(*) AS n FROM pm_purchases`))[0]!.n),
  });
  /** An unpaid call's PaymentRequired, signed by the default client. */
  const signed = async (idempotencyKey: string): Promise<PaymentPayload> => {
    const unpaid = await buy({ idempotencyKey });
    assert.equal(statusOf(unpaid), 402, JSON.stringify(unpaid));
    return x402().createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired);
  };
  /** A paid result: credited once, the settlement in _meta equal to the purchase's transaction. */
  const assertPaid = (r: Result) => {
    assert.equal(r.isError, undefined, JSON.stringify(r));
    assert.equal(statusOf(r), 200);
    assert.equal(r.structuredContent!.status, "credited");
    assert.equal(r.structuredContent!.fillsCredited, FILLS);
    const settlement = (r._meta as Record<string, SettleResponse>)["x402/payment-response"]!;
    assert.equal(settlement.success, true);
    assert.equal(settlement.transaction.toLowerCase(), r.structuredContent!.payment.transaction);
    assert.deepEqual(JSON.parse((r.content[0] as { text: string }).text), r.structuredContent, "the text content is the same JSON");
  };

  before(async () => {
    stack = await startBaseLikeService({ REGION_COUNTRY_HEADER: "cf-ipcountry", REGION_BLOCKED_COUNTRIES: "KP" });
    ({ t, client } = stack);
    buyer = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "mcp-buyer" });
    await fundUsdc(client, BASE_USDC, [getAddress(buyer.walletAddress)], 5n * PRICE);
    await t.svc.services.venue!.openAccount(account(), t.clock.now()); // the starting grant lands before any snapshot
    mcp = await connect();
  });
  after(async () => {
    for (const c of clients) await c.close();
    await stack?.stop();
  });

  it("lists svc_buy_pm with an optional `payment` (object or base64) beside pm and idempotencyKey", async () => {
    const tool = (await mcp.listTools()).tools.find((x) => x.name === "svc_buy_pm");
    assert.ok(tool, "svc_buy_pm is listed");
    assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), ["idempotencyKey", "payment", "pm"]);
    assert.deepEqual([...(tool.inputSchema.required ?? [])].sort(), ["idempotencyKey", "pm"]);
    const payment = (tool.inputSchema.properties as Record<string, Json>).payment!;
    assert.deepEqual((payment.anyOf as Json[]).map((s) => s.type).sort(), ["object", "string"]);
    assert.equal(tool.outputSchema?.type, "object");
  });

  it("answers an unpaid call with a tool error whose structured content is the PaymentRequired REST answers, changing nothing", async () => {
    const before = await snapshot();
    const r = await buy({ idempotencyKey: randomUUID() });
    assert.equal(r.isError, true);
    assert.equal(statusOf(r), 402);
    const required = r.structuredContent!;
    assert.equal(required.code, "PAYMENT_REQUIRED");
    assert.equal(required.x402Version, 2);
    assert.deepEqual(problemOf(r), required, "the text content is the same problem JSON");
    const rest = await fetch(`${t.svc.baseUrl}/pm/buy`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${buyer.apiKey}`, "idempotency-key": randomUUID() },
      body: JSON.stringify({ pm: 1_000 }),
    });
    assert.equal(rest.status, 402);
    const restBody = (await rest.json()) as Json;
    assert.deepEqual(required.accepts, restBody.accepts);
    assert.deepEqual(required.resource, restBody.resource);
    assert.equal(required.accepts[0].asset, BASE_USDC);
    assert.equal(required.accepts[0].amount, PRICE.toString());
    assert.deepEqual(await snapshot(), before);
  });

  let first: { idempotencyKey: string; payment: PaymentPayload; result: Result };

  it("settles a PaymentPayload given as the `payment` object (same idempotencyKey) and credits the bundle once", async () => {
    const before = await snapshot();
    const idempotencyKey = randomUUID();
    const payment = await signed(idempotencyKey);
    const r = await buy({ idempotencyKey, payment });
    assertPaid(r);
    assert.equal(r.structuredContent!.payment.payer, buyer.walletAddress.toLowerCase());
    const after = await snapshot();
    assert.equal(after.payer, before.payer - PRICE);
    assert.equal(after.treasury - before.treasury, PRICE);
    assert.equal(after.pm, before.pm + BUNDLE_PM);
    assert.equal(after.rows, before.rows + 1);
    assert.equal(after.journal, before.journal + 2, "one CREDIT, one addFillCredits");
    const [record] = await t.svc.ctx.db.query<{ surface: string }>(
      `SELECT surface FROM api_call_records WHERE operation = 'buyPm' AND status = 200 ORDER BY id DESC LIMIT 1`,
    );
    assert.equal(record?.surface, "mcp");
    first = { idempotencyKey, payment, result: r };
  });

  it("replays the same idempotencyKey with the same purchase and settlement, without a second transfer", async () => {
    const before = await snapshot();
    const r = await buy({ idempotencyKey: first.idempotencyKey, payment: first.payment });
    assertPaid(r);
    assert.deepEqual(r.structuredContent, first.result.structuredContent);
    assert.equal((r._meta as { headers: Json }).headers["idempotent-replayed"], "true");
    assert.deepEqual(await snapshot(), before);
  });

  it("refuses the same authorization under another idempotencyKey: 402 with the reused-nonce reason, nothing moves", async () => {
    const before = await snapshot();
    const r = await buy({ idempotencyKey: randomUUID(), payment: first.payment });
    assert.equal(r.isError, true);
    assert.equal(statusOf(r), 402);
    assert.equal(r.structuredContent!.error, "invalid_exact_evm_nonce_already_used");
    assert.equal(r.structuredContent!.accepts.length, 1);
    assert.deepEqual(await snapshot(), before);
  });

  it('takes the payment as base64 (the PAYMENT-SIGNATURE value) and in _meta["x402/payment"] too', async () => {
    for (const form of ["base64", "meta"] as const) {
      const before = await snapshot();
      const idempotencyKey = randomUUID();
      const payment = await signed(idempotencyKey);
      const r =
        form === "base64"
          ? await buy({ idempotencyKey, payment: encodePaymentSignatureHeader(payment) })
          : await buy({ idempotencyKey }, { meta: { "x402/payment": payment } });
      assertPaid(r);
      const after = await snapshot();
      assert.equal(after.payer, before.payer - PRICE, form);
      assert.equal(after.pm, before.pm + BUNDLE_PM, form);
    }
  });

  it("refuses a malformed payment with INVALID_PAYLOAD naming `payment`, before anything is paid", async () => {
    const idempotencyKey = randomUUID();
    const payment = await signed(idempotencyKey);
    const before = await snapshot();
    const cases: [string, Record<string, unknown>, Record<string, unknown> | undefined, RegExp][] = [
      ["both ways", { payment }, { "x402/payment": payment }, /once/],
      ["not base64", { payment: "not base64!" }, undefined, /base64/],
      ["not an object or text", { payment: 42 }, undefined, /PaymentPayload object or its base64/],
      ["an object that is no payload", { payment: { x402Version: 1, payload: {} } }, undefined, /version 2 PaymentPayload/],
      ["base64 of no payload", { payment: Buffer.from("{}").toString("base64") }, undefined, /`payment` must carry an x402 version 2 payload/],
    ];
    for (const [name, args, meta, detail] of cases) {
      const r = await buy({ idempotencyKey: randomUUID(), ...args }, { meta });
      assert.equal(r.isError, true, name);
      assert.equal(statusOf(r), 400, `${name}: ${JSON.stringify(r)}`);
      const p = problemOf(r);
      assert.equal(p.code, "INVALID_PAYLOAD", name);
      assert.equal(p.field, "payment", name);
      assert.match(String(p.detail), detail, name);
      assert.equal(r.structuredContent, undefined, `${name}: only a 402 carries structured content`);
    }
    assert.deepEqual(await snapshot(), before);
  });

  it("applies the region rule from the operator's country header on POST /mcp: 403 SERVICE_UNAVAILABLE_IN_REGION, nothing paid", async () => {
    const blocked = await connect({ "cf-ipcountry": "KP" });
    const idempotencyKey = randomUUID();
    const payment = await signed(idempotencyKey);
    const before = await snapshot();
    const r = await buy({ idempotencyKey, payment }, { via: blocked });
    assert.equal(r.isError, true);
    assert.equal(statusOf(r), 403, JSON.stringify(r));
    assert.equal(problemOf(r).code, "SERVICE_UNAVAILABLE_IN_REGION");
    assert.deepEqual(await snapshot(), before);
    // Another country goes through to the purchase (under a new key: the 403 is stored against the first, as on REST).
    const elsewhere = await connect({ "cf-ipcountry": "FR" });
    assertPaid(await buy({ idempotencyKey: randomUUID(), payment }, { via: elsewhere }));
  });
});
