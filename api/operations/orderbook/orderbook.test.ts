/**
 * The order-book loop over real HTTP against startService: resting orders in the agent's list and the public depth,
 * crossing agents and their gap-free events, terminal cancels and receipt-authoritative confirmation, clientOrderId
 * and Idempotency-Key retries, batches, replace-quotes, cancel-all, GTD expiry, refusals that change nothing, and
 * isolation between agents.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import { createLocalAgent, type LocalAgent } from "../../domain/auth/local-agents";
import { takerFee, type FeePolicyVersion } from "../../../relayer/pricing/fees";
import { bindingOf } from "../../transports/mcp/tools";
import { apiClient, startTestService, stopTestService, type CallResult, type Json, type TestService } from "../../../test/support/service";
import { ORDERBOOK_OPERATIONS } from "./index";
import { KEEP_FINISHED_ORDERS } from "../../../relayer/engine/types";

const SHARE = 1_000_000n;

describe("order-book loop (POST /orderbook/*)", () => {
  let t: TestService;
  let alice: LocalAgent;
  let bob: LocalAgent;
  let reader: LocalAgent;
  let market: Json;
  let lmsr: Json;
  let A: ReturnType<typeof apiClient>;
  let B: ReturnType<typeof apiClient>;

  /** Everything an agent could see change: balances, open orders and events. */
  const snapshot = async (call: ReturnType<typeof apiClient>) => ({
    balances: (await call("GET", "/orderbook/balances")).json,
    orders: (await call("GET", "/orderbook/orders")).json,
    events: (await call("POST", "/orderbook/events", { fromSeq: 0, limit: 500 })).json,
  });
  const ok = (r: CallResult, status = 200) => assert.equal(r.status, status, JSON.stringify(r.json));
  const problem = (r: CallResult, status: number, code: string) => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.match(String(r.json.type), new RegExp(`${code}$`), JSON.stringify(r.json));
  };
  const pm = (balances: Json) => (balances.balances as Json[]).find((b) => b.asset === "PM")!;
  const depth = async () => (await A("GET", `/discover/markets/${market.address}/depth`)).json;
  const bidAt = (d: Json, price: string) => BigInt((d.bids as Json[]).find((l) => l.priceBps === price)?.size ?? "0");

  before(async () => {
    t = await startTestService({ PM_STARTING_GRANT: (1_000n * SHARE).toString() });
    alice = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "ob-alice" });
    bob = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "ob-bob" });
    reader = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "ob-reader", tier: "read-only" });
    A = apiClient(t, alice.apiKey);
    B = apiClient(t, bob.apiKey);
    const list = await A("GET", "/discover/markets?pricingModel=ORDERBOOK&pageSize=100");
    ok(list);
    market =
      (list.json.markets as Json[]).find((m) => m.feePolicyVersion === "notional-v1" || m.fees?.feePolicyVersion === "notional-v1") ?? list.json.markets[0];
    assert.ok(market, "a demo ORDERBOOK market");
    lmsr = ((await A("GET", "/discover/markets?pricingModel=automated&pageSize=100")).json.markets as Json[])[0]!;
  });
  after(async () => stopTestService(t));

  let restingId = "";

  it("places a resting GTC buy: in the agent's orders, the public depth and the reserved PM; X-Fills-Remaining", async () => {
    const before = await depth();
    const r = await A("POST", "/orderbook/place-order", {
      market: market.address,
      outcome: 0,
      side: "buy",
      priceBps: "4500",
      size: (10n * SHARE).toString(),
      clientOrderId: "a-1",
    });
    ok(r);
    const [o] = r.json.orders as Json[];
    assert.equal(o.status, "open");
    assert.equal(o.clientOrderId, "a-1");
    assert.equal(o.market, market.address);
    assert.equal(o.priceBps, "4500");
    assert.equal(o.timeInForce, "GTC");
    assert.equal(o.postOnly, false);
    assert.equal(o.remainingSize, (10n * SHARE).toString());
    assert.equal(o.reserved, "4500000", "10 shares at 0.45 lock 4.5 PM");
    assert.deepEqual(o.fills, []);
    assert.equal(r.headers.get("x-fills-remaining"), String(r.json.fillsRemaining));
    assert.equal(r.json.fillsRemaining, 1000);
    restingId = o.orderId;

    const open = (await A("GET", `/orderbook/orders?market=${market.address}`)).json.orders as Json[];
    assert.deepEqual(
      open.map((x) => x.orderId),
      [restingId],
    );
    assert.equal(bidAt(await depth(), "4500") - bidAt(before, "4500"), 10n * SHARE, "the bid is on the public book");
    const cash = pm((await A("GET", "/orderbook/balances")).json);
    assert.equal(cash.reserved, "4500000");
    assert.equal(BigInt(cash.available), 1_000n * SHARE - 4_500_000n);
  });

  it("a clientOrderId retry returns the same order and places nothing; other fields under it are a CONFLICT", async () => {
    const before = await snapshot(A);
    const body = { market: market.address, outcome: 0, side: "buy", priceBps: "4500", size: (10n * SHARE).toString(), clientOrderId: "a-1" };
    const again = await A("POST", "/orderbook/place-order", body);
    ok(again);
    assert.equal(again.json.orders[0].orderId, restingId);
    assert.deepEqual(await snapshot(A), before, "no second order, lock or event");
    const other = await A("POST", "/orderbook/place-order", { ...body, priceBps: "4400" });
    problem(other, 409, "CONFLICT");
    assert.deepEqual(await snapshot(A), before);
  });

  it("an Idempotency-Key replay answers the stored response and executes once", async () => {
    const body = { market: market.address, outcome: 0, side: "buy", priceBps: "3000", size: (1n * SHARE).toString() };
    const first = await A("POST", "/orderbook/place-order", body, { idem: "place-once" });
    ok(first);
    const replay = await A("POST", "/orderbook/place-order", body, { idem: "place-once" });
    ok(replay);
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.equal(replay.headers.get("x-fills-remaining"), first.headers.get("x-fills-remaining"));
    assert.deepEqual(replay.json, first.json);
    const open = (await A("GET", "/orderbook/orders")).json.orders as Json[];
    assert.equal(open.filter((o) => o.priceBps === "3000").length, 1);
    ok(await A("POST", "/orderbook/cancel-order", { orderId: first.json.orders[0].orderId }));
  });

  it("an Idempotency-Key another kind of write used is refused to an order (409 reused), which places nothing", async () => {
    const take = await A(
      "POST",
      "/agents/me/takes",
      { marketAddress: market.address, probability: 0.4, rationale: "Key shared with an order.", confidence: "low" },
      { idem: "shared-key" },
    );
    assert.equal(take.status, 201, JSON.stringify(take.json));
    const before = await snapshot(A);
    const body = { market: market.address, outcome: 0, side: "buy", priceBps: "3100", size: (1n * SHARE).toString() };
    problem(await A("POST", "/orderbook/place-order", body, { idem: "shared-key" }), 409, "IDEMPOTENCY_KEY_REUSED");
    assert.deepEqual(await snapshot(A), before, "no order, lock or event");
  });

  it("a crossing order fills both agents: maker and taker fills, fee, consecutive event seqs on both sides", async () => {
    const aliceBefore = (await A("POST", "/orderbook/events", { fromSeq: 0, limit: 500 })).json.events as Json[];
    // Bob buys NO at 55 %: in YES terms an ask at 4500, so it mints against Alice's YES bid.
    const r = await B("POST", "/orderbook/place-order", {
      market: market.address,
      outcome: 1,
      side: "buy",
      priceBps: "5500",
      size: (4n * SHARE).toString(),
      clientOrderId: "b-1",
    });
    ok(r);
    const [o] = r.json.orders as Json[];
    assert.equal(o.status, "filled");
    assert.equal(o.filledSize, (4n * SHARE).toString());
    assert.equal(o.remainingSize, "0");
    assert.equal(o.fills.length, 1);
    const fill = o.fills[0];
    assert.equal(fill.liquidity, "taker");
    assert.equal(fill.matchKind, "MINT");
    assert.equal(fill.priceBps, "5500");
    assert.equal(fill.size, (4n * SHARE).toString());
    const vm = await t.svc.services.venue!.marketAt(market.address);
    assert.equal(fill.fee, takerFee(vm.market.feePolicyVersion as FeePolicyVersion, vm.market.takerFeeBps, 5500, 4n * SHARE).toString());
    assert.equal(r.json.fillsRemaining, 999);
    assert.equal(r.headers.get("x-fills-remaining"), "999");

    const aliceEvents = (await A("POST", "/orderbook/events", { fromSeq: 0, limit: 500 })).json.events as Json[];
    const bobEvents = (await B("POST", "/orderbook/events", { fromSeq: 0, limit: 500 })).json.events as Json[];
    for (const evs of [aliceEvents, bobEvents])
      assert.deepEqual(
        evs.map((e) => e.seq),
        evs.map((_, i) => i + 1),
        "gap-free from 1",
      );
    assert.equal(aliceEvents.length, aliceBefore.length + 1);
    const makerFill = aliceEvents.at(-1)!;
    const takerFill = bobEvents.at(-1)!;
    assert.equal(makerFill.kind, "fill");
    assert.equal(makerFill.liquidity, "maker");
    assert.equal(makerFill.fee, "0");
    assert.equal(makerFill.orderId, restingId);
    assert.equal(makerFill.status, "partially_filled");
    assert.equal(makerFill.market, market.address);
    assert.equal(takerFill.tradeId, makerFill.tradeId);
    assert.equal(takerFill.tradeId, fill.tradeId);
    assert.equal(takerFill.seq, fill.seq);
    assert.deepEqual(
      bobEvents.map((e) => e.kind),
      ["new", "fill"],
    );

    const open = (await A("GET", "/orderbook/orders")).json.orders as Json[];
    assert.equal(open[0].status, "partially_filled");
    assert.equal(open[0].remainingSize, (6n * SHARE).toString());
    assert.equal(open[0].reserved, "2700000", "the lock follows the remainder");
    const noShares = (await B("GET", "/orderbook/balances")).json.balances as Json[];
    assert.equal(noShares.find((b) => b.asset === "OUTCOME" && b.outcome === 1 && b.market === market.address)?.total, (4n * SHARE).toString());
  });

  it("pages events with nextSeq and hasMore", async () => {
    const p1 = await A("POST", "/orderbook/events", { fromSeq: 0, limit: 1 });
    ok(p1);
    assert.equal(p1.json.events.length, 1);
    assert.equal(p1.json.hasMore, true);
    assert.equal(p1.json.nextSeq, 2);
    const p2 = await A("POST", "/orderbook/events", { fromSeq: p1.json.nextSeq, limit: 500 });
    assert.equal(p2.json.events[0].seq, 2);
    assert.equal(p2.json.hasMore, false);
    const end = await A("POST", "/orderbook/events", { fromSeq: p2.json.nextSeq });
    assert.deepEqual(end.json, { events: [], nextSeq: p2.json.nextSeq, hasMore: false });
  });

  it("another agent can neither see, cancel nor confirm the order (ORDER_NOT_FOUND)", async () => {
    problem(await B("POST", "/orderbook/cancel-order", { orderId: restingId }), 404, "ORDER_NOT_FOUND");
    problem(await B("POST", "/orderbook/cancel-order", { clientOrderId: "a-1" }), 404, "ORDER_NOT_FOUND");
    problem(await B("POST", "/orderbook/confirm-cancel", { orderId: restingId }), 404, "ORDER_NOT_FOUND");
    assert.deepEqual((await B("GET", "/orderbook/orders")).json.orders, []);
    problem(await A("POST", "/orderbook/cancel-order", { orderId: "o-999999" }), 404, "ORDER_NOT_FOUND");
    assert.equal(((await A("GET", "/orderbook/orders")).json.orders as Json[])[0].orderId, restingId);
  });

  it("confirm-cancel of a live order is ORDER_STILL_OPEN; cancel is terminal and confirm-cancel then final", async () => {
    const still = await A("POST", "/orderbook/confirm-cancel", { orderId: restingId });
    problem(still, 409, "CONFLICT");
    assert.equal(still.json.reason, "ORDER_STILL_OPEN");
    assert.equal(still.json.status, 409);
    assert.equal(still.json.orderStatus, "partially_filled");

    const c = await A("POST", "/orderbook/cancel-order", { clientOrderId: "a-1" });
    ok(c);
    assert.equal(c.json.order.orderId, restingId);
    assert.equal(c.json.order.status, "cancelled");
    assert.equal(c.json.order.cancelReason, "user");
    assert.equal(c.json.order.remainingSize, "0");
    assert.equal(c.json.order.filledSize, (4n * SHARE).toString());
    assert.equal(pm((await A("GET", "/orderbook/balances")).json).reserved, "0", "the lock is released");
    assert.equal(bidAt(await depth(), "4500"), 0n);

    const before = await snapshot(A);
    const again = await A("POST", "/orderbook/cancel-order", { orderId: restingId });
    problem(again, 409, "CONFLICT");
    assert.equal(again.json.reason, "ORDER_NOT_OPEN");
    assert.equal(again.json.status, 409, "the problem's status member stays the HTTP status");
    assert.equal(again.json.orderStatus, "cancelled");
    assert.equal(again.json.order.status, "cancelled");
    assert.deepEqual(await snapshot(A), before);

    const conf = await A("POST", "/orderbook/confirm-cancel", { orderId: restingId });
    ok(conf);
    const events = before.events.events as Json[];
    assert.deepEqual(conf.json, {
      orderId: restingId,
      clientOrderId: "a-1",
      status: "cancelled",
      final: true,
      cancelReason: "user",
      filledSize: (4n * SHARE).toString(),
      remainingSize: "0",
      lastSeq: events.at(-1)!.seq,
      at: new Date(events.at(-1)!.at).toISOString(),
    });
    // A filled order is final too.
    const filled = await B("POST", "/orderbook/confirm-cancel", { clientOrderId: "b-1" });
    ok(filled);
    assert.equal(filled.json.status, "filled");
    assert.equal(filled.json.final, true);
  });

  it("places a batch all or nothing, replaces the quote set atomically and cancels all", async () => {
    const o = (priceBps: string, clientOrderId?: string) => ({
      outcome: 0,
      side: "buy",
      priceBps,
      size: (2n * SHARE).toString(),
      ...(clientOrderId ? { clientOrderId } : {}),
    });
    const before = await snapshot(A);
    const bad = await A("POST", "/orderbook/place-order", { market: market.address, orders: [o("4000"), o("10000")] });
    problem(bad, 400, "INVALID_PAYLOAD");
    assert.equal(bad.json.field, "orders.1.priceBps");
    const broke = await A("POST", "/orderbook/place-order", {
      market: market.address,
      orders: [o("4000"), { ...o("4000"), size: (10_000n * SHARE).toString() }],
    });
    problem(broke, 409, "INSUFFICIENT_BALANCE");
    assert.deepEqual(await snapshot(A), before, "a refused batch places nothing");

    const batch = await A("POST", "/orderbook/place-order", { market: market.address, orders: [o("4000", "q-1"), o("3900", "q-2"), o("3800")] });
    ok(batch);
    const ids = (batch.json.orders as Json[]).map((x) => x.orderId);
    assert.equal(ids.length, 3);
    assert.deepEqual(
      (batch.json.orders as Json[]).map((x) => x.status),
      ["open", "open", "open"],
    );
    assert.deepEqual(
      ((await A("GET", "/orderbook/orders")).json.orders as Json[]).map((x) => x.orderId),
      ids,
    );

    const rq = await A("POST", "/orderbook/replace-quotes", { market: market.address, orders: [o("4100", "q-3"), o("3700")] });
    ok(rq);
    assert.deepEqual(rq.json.cancelled, ids);
    assert.equal(rq.headers.get("x-fills-remaining"), String(rq.json.fillsRemaining));
    const now = ((await A("GET", "/orderbook/orders")).json.orders as Json[]).map((x) => x.orderId);
    assert.deepEqual(
      now,
      (rq.json.orders as Json[]).map((x) => x.orderId),
    );
    assert.equal(pm((await A("GET", "/orderbook/balances")).json).reserved, String((2n * SHARE * 4100n) / 10_000n + (2n * SHARE * 3700n) / 10_000n));
    const replaced = await A("POST", "/orderbook/confirm-cancel", { clientOrderId: "q-1" });
    assert.equal(replaced.json.cancelReason, "replaced");

    const all = await A("POST", "/orderbook/cancel-all", { market: market.address });
    ok(all);
    assert.deepEqual(all.json.cancelled, now);
    assert.deepEqual((await A("GET", "/orderbook/orders")).json.orders, []);
    assert.deepEqual((await A("POST", "/orderbook/cancel-all", {})).json.cancelled, []);
    assert.equal(pm((await A("GET", "/orderbook/balances")).json).reserved, "0");
  });

  it("IOC cancels what it cannot fill; post-only that would cross is refused; GTD expires on the clock", async () => {
    const ioc = await A("POST", "/orderbook/place-order", {
      market: market.address,
      outcome: 0,
      side: "buy",
      priceBps: "100",
      size: "10000",
      timeInForce: "IOC",
    });
    ok(ioc);
    assert.equal(ioc.json.orders[0].status, "cancelled");
    assert.equal(ioc.json.orders[0].cancelReason, "ioc_remainder");

    ok(await B("POST", "/orderbook/place-order", { market: market.address, outcome: 0, side: "buy", priceBps: "4200", size: (1n * SHARE).toString() }));
    const before = await snapshot(A);
    const po = await A("POST", "/orderbook/place-order", {
      market: market.address,
      outcome: 0,
      side: "sell",
      priceBps: "4200",
      size: (1n * SHARE).toString(),
      postOnly: true,
    });
    problem(po, 409, "CONFLICT");
    assert.equal(po.json.reason, "POST_ONLY_WOULD_CROSS");
    assert.deepEqual(await snapshot(A), before);
    ok(await B("POST", "/orderbook/cancel-all", {}));

    const expiresAt = new Date(t.clock.now() + 60_000).toISOString();
    const gtd = await A("POST", "/orderbook/place-order", {
      market: market.address,
      outcome: 0,
      side: "buy",
      priceBps: "2000",
      size: (1n * SHARE).toString(),
      timeInForce: "GTD",
      expiresAt,
      clientOrderId: "gtd-1",
    });
    ok(gtd);
    assert.equal(gtd.json.orders[0].expiresAt, expiresAt);
    t.clock.advance(61_000);
    ok(await B("POST", "/orderbook/cancel-all", {})); // any command sweeps expired orders
    const conf = await A("POST", "/orderbook/confirm-cancel", { clientOrderId: "gtd-1" });
    ok(conf);
    assert.equal(conf.json.status, "expired");
    assert.deepEqual((await A("GET", "/orderbook/orders")).json.orders, []);
  });

  it("refuses bad inputs with the right problem and changes nothing", async () => {
    const base = { market: market.address, outcome: 0, side: "buy", priceBps: "4500", size: "1000000" };
    const before = await snapshot(A);
    const cases: [Json, number, string, string?][] = [
      [{ ...base, priceBps: "0" }, 400, "INVALID_PAYLOAD", "priceBps"],
      [{ ...base, priceBps: "10000" }, 400, "INVALID_PAYLOAD", "priceBps"],
      [{ ...base, priceBps: 4500 }, 400, "INVALID_PAYLOAD", "priceBps"],
      [{ ...base, size: "12345" }, 400, "INVALID_PAYLOAD", "size"],
      [{ ...base, size: "0" }, 400, "INVALID_PAYLOAD", "size"],
      [{ ...base, outcome: 2 }, 400, "INVALID_PAYLOAD", "outcome"],
      [{ ...base, timeInForce: "GTD" }, 400, "INVALID_PAYLOAD", "expiresAt"],
      [{ ...base, expiresAt: "2030-01-01T00:00:00Z" }, 400, "INVALID_PAYLOAD", "expiresAt"],
      [{ ...base, timeInForce: "IOC", postOnly: true }, 400, "INVALID_PAYLOAD", "postOnly"],
      [{ ...base, timeInForce: "GTD", expiresAt: new Date(t.clock.now() - 1000).toISOString() }, 400, "INVALID_PAYLOAD"],
      [{ ...base, clientOrderId: "has space" }, 400, "INVALID_PAYLOAD", "clientOrderId"],
      [{ ...base, orders: [{ outcome: 0, side: "buy", priceBps: "4500", size: "1000000" }] }, 400, "INVALID_PAYLOAD", "orders"],
      [{ market: market.address }, 400, "INVALID_PAYLOAD"],
      [{ ...base, extra: 1 }, 400, "INVALID_PAYLOAD", "extra"],
      [{ ...base, market: "0x000000000000000000000000000000000000dEaD" }, 404, "MARKET_NOT_FOUND"],
      [{ ...base, market: lmsr.address }, 400, "INVALID_PAYLOAD", "market"],
      [{ ...base, size: (100_000n * SHARE).toString() }, 409, "INSUFFICIENT_BALANCE"],
      [{ ...base, side: "sell", outcome: 1, priceBps: "9000", size: (50n * SHARE).toString() }, 409, "INSUFFICIENT_BALANCE"],
    ];
    for (const [body, status, code, field] of cases) {
      const r = await A("POST", "/orderbook/place-order", body);
      problem(r, status, code);
      if (field) assert.equal(String(r.json.field).split(".")[0], field, JSON.stringify(r.json));
    }
    problem(await A("POST", "/orderbook/place-order", base, { idem: null }), 400, "IDEMPOTENCY_KEY_REQUIRED");
    problem(await A("POST", "/orderbook/cancel-order", {}), 400, "INVALID_PAYLOAD");
    problem(await A("POST", "/orderbook/cancel-order", { orderId: "o-1", clientOrderId: "a-1" }), 400, "INVALID_PAYLOAD");
    problem(await A("POST", "/orderbook/events", { fromSeq: -1 }), 400, "INVALID_PAYLOAD");
    problem(await A("POST", "/orderbook/events", { limit: 501 }), 400, "INVALID_PAYLOAD");
    problem(await A("GET", "/orderbook/orders?market=0x000000000000000000000000000000000000dEaD"), 404, "MARKET_NOT_FOUND");
    assert.deepEqual(await snapshot(A), before, "no balance, order or event changed");
  });

  it("a read-only key reads its own state but cannot trade", async () => {
    const R = apiClient(t, reader.apiKey);
    problem(
      await R("POST", "/orderbook/place-order", { market: market.address, outcome: 0, side: "buy", priceBps: "4500", size: "1000000" }),
      403,
      "FORBIDDEN",
    );
    problem(await R("POST", "/orderbook/cancel-all", {}), 403, "FORBIDDEN");
    ok(await R("GET", "/orderbook/orders"));
    const ev = await R("POST", "/orderbook/events", {});
    ok(ev);
    assert.deepEqual(ev.json.events, []);
    const bal = await R("GET", "/orderbook/balances");
    ok(bal);
    assert.equal(bal.json.account, reader.ledgerAccount.toLowerCase());
    assert.equal(pm(bal.json).total, (1_000n * SHARE).toString(), "the starting grant");
  });

  it("place-limit-order rests one GTC/GTD order with place-order's answer, and refuses IOC and batches", async () => {
    const r = await B("POST", "/orderbook/place-limit-order", {
      market: market.address,
      outcome: 1,
      side: "buy",
      priceBps: "1000",
      size: (1n * SHARE).toString(),
      clientOrderId: "b-limit",
    });
    ok(r);
    const [o] = r.json.orders as Json[];
    assert.deepEqual([o.status, o.timeInForce, o.clientOrderId], ["open", "GTC", "b-limit"]);
    assert.equal(r.headers.get("x-fills-remaining"), String(r.json.fillsRemaining));
    const before = await snapshot(B);
    problem(
      await B("POST", "/orderbook/place-limit-order", {
        market: market.address,
        outcome: 1,
        side: "buy",
        priceBps: "1000",
        size: (1n * SHARE).toString(),
        timeInForce: "IOC",
      }),
      400,
      "INVALID_PAYLOAD",
    );
    problem(await B("POST", "/orderbook/place-limit-order", { market: market.address, orders: [] }), 400, "INVALID_PAYLOAD");
    assert.deepEqual(await snapshot(B), before);
    ok(await B("POST", "/orderbook/cancel-order", { orderId: o.orderId }));
  });

  it("MCP tools: the spec's names, flat arguments, Idempotency-Key on writes only", () => {
    const tools = new Map(ORDERBOOK_OPERATIONS.map((op) => [op.mcpTool, bindingOf(op)]));
    assert.deepEqual([...tools.keys()].sort(), [
      "svc_cancel_all_orders",
      "svc_cancel_order",
      "svc_confirm_order_cancel",
      "svc_get_balances",
      "svc_list_open_orders",
      "svc_list_order_events",
      "svc_place_limit_order",
      "svc_place_order",
      "svc_replace_quotes",
      "svc_replace_quotes_batch",
    ]);
    const place = tools.get("svc_place_order")!;
    assert.ok(Array.isArray(place.bodyKeys));
    assert.ok(
      ["market", "orders", "outcome", "side", "priceBps", "size", "timeInForce", "expiresAt", "postOnly", "clientOrderId"].every((k) =>
        (place.bodyKeys as string[]).includes(k),
      ),
    );
    assert.equal(place.needsIdempotencyKey, true);
    assert.equal(tools.get("svc_list_order_events")!.needsIdempotencyKey, false);
    assert.equal(tools.get("svc_confirm_order_cancel")!.needsIdempotencyKey, false);
  });
  it("a finished order past its account's retention answers from its reports; its clientOrderId is free again", async () => {
    // docs/engine.md#retention: the engine holds an account's last KEEP_FINISHED_ORDERS finished orders.
    const carol = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "ob-carol" });
    const C = apiClient(t, carol.apiKey);
    const body = { market: market.address, outcome: 0, side: "buy", priceBps: "100", size: SHARE.toString(), clientOrderId: "old-1" };
    const placed = await C("POST", "/orderbook/place-order", body);
    ok(placed);
    const oldId = String((placed.json.orders as Json[])[0]!.orderId);
    ok(await C("POST", "/orderbook/cancel-order", { orderId: oldId }));
    const venue = t.svc.services.venue!;
    const { marketId } = await venue.marketAt(market.address);
    const account = carol.ledgerAccount.toLowerCase() as Address;
    const ioc = { type: "placeOrder", account, marketId, outcome: 0, action: "buy", priceBps: 100, size: SHARE, tif: "IOC" } as const;
    const done = await Promise.all(Array.from({ length: KEEP_FINISHED_ORDERS }, () => venue.exchange.submit(ioc)));
    assert.ok(done.every((r) => r.ok));
    assert.equal(venue.exchange.engine.order(oldId), undefined);

    const cancel = await C("POST", "/orderbook/cancel-order", { orderId: oldId });
    problem(cancel, 409, "CONFLICT");
    assert.deepEqual([cancel.json.reason, cancel.json.orderStatus, cancel.json.retired], ["ORDER_NOT_OPEN", "cancelled", true]);
    const conf = await C("POST", "/orderbook/confirm-cancel", { orderId: oldId });
    ok(conf);
    assert.deepEqual([conf.json.orderId, conf.json.clientOrderId, conf.json.status, conf.json.cancelReason], [oldId, "old-1", "cancelled", "user"]);
    // Another agent still learns nothing; by clientOrderId the forgotten order is unknown, and the id is free again.
    problem(await B("POST", "/orderbook/confirm-cancel", { orderId: oldId }), 404, "ORDER_NOT_FOUND");
    problem(await B("POST", "/orderbook/cancel-order", { orderId: oldId }), 404, "ORDER_NOT_FOUND");
    problem(await C("POST", "/orderbook/confirm-cancel", { clientOrderId: "old-1" }), 404, "ORDER_NOT_FOUND");
    const again = await C("POST", "/orderbook/place-order", { ...body, priceBps: "200" });
    ok(again);
    assert.notEqual(String((again.json.orders as Json[])[0]!.orderId), oldId);
  });
});

describe("order-book loop: fill allowance (402 FILL_ALLOWANCE_EXHAUSTED)", () => {
  let t: TestService;
  let maker: LocalAgent;
  let taker: LocalAgent;
  let market: Json;

  before(async () => {
    t = await startTestService({ FILL_ALLOWANCE_FREE_PER_PERIOD: "2" });
    maker = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "ob-maker" });
    taker = await createLocalAgent(t.svc.ctx.db, t.clock, { name: "ob-taker" });
    market = (await apiClient(t, maker.apiKey)("GET", "/discover/markets?pricingModel=ORDERBOOK")).json.markets[0];
  });
  after(async () => stopTestService(t));

  it("counts down X-Fills-Remaining, then refuses new orders with 402 and changes nothing; cancels and full closes still pass", async () => {
    const M = apiClient(t, maker.apiKey);
    const T = apiClient(t, taker.apiKey);
    const bid = await M("POST", "/orderbook/place-order", { market: market.address, outcome: 0, side: "buy", priceBps: "5000", size: "3000000" });
    assert.equal(bid.status, 200, JSON.stringify(bid.json));
    assert.equal(bid.headers.get("x-fills-remaining"), "2", "placing consumes nothing");
    const remaining: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await T("POST", "/orderbook/place-order", { market: market.address, outcome: 1, side: "buy", priceBps: "5000", size: "1000000" });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.equal(r.json.orders[0].status, "filled");
      remaining.push(r.headers.get("x-fills-remaining")!);
    }
    assert.deepEqual(remaining, ["1", "0"]);

    const engine = () => t.svc.services.venue!.exchange.engine;
    const account = taker.ledgerAccount.toLowerCase() as Address;
    const before = { balances: engine().balances(account), orders: engine().openOrders(account), events: (await T("POST", "/orderbook/events", {})).json };
    const refused = await T("POST", "/orderbook/place-order", { market: market.address, outcome: 1, side: "buy", priceBps: "5000", size: "1000000" });
    assert.equal(refused.status, 402, JSON.stringify(refused.json));
    assert.match(String(refused.json.type), /FILL_ALLOWANCE_EXHAUSTED$/);
    assert.equal(refused.headers.get("x-fills-remaining"), "0");
    assert.equal(refused.json.allowance.remaining, 0);
    assert.equal(refused.json.allowance.freePerPeriod, 2);
    const batch = await T("POST", "/orderbook/place-order", { market: market.address, orders: [{ outcome: 1, side: "buy", priceBps: "100", size: "10000" }] });
    assert.equal(batch.status, 402);
    assert.deepEqual(
      { balances: engine().balances(account), orders: engine().openOrders(account), events: (await T("POST", "/orderbook/events", {})).json },
      before,
    );

    // The maker's resting order keeps its place; cancelling needs no allowance; selling the whole position is a close.
    const m = await M("GET", "/orderbook/orders");
    assert.equal(m.json.orders[0].remainingSize, "1000000");
    assert.equal((await M("POST", "/orderbook/cancel-all", {})).status, 200);
    const close = await T("POST", "/orderbook/place-order", { market: market.address, outcome: 1, side: "sell", priceBps: "9000", size: "2000000" });
    assert.equal(close.status, 200, JSON.stringify(close.json));
    assert.equal(close.json.orders[0].status, "open");
  });
});
