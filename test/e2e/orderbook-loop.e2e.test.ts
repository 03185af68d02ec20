/**
 * Acceptance of the issue "Trading surface and realtime", checked by two agents as new users would try it against
 * `npm start` (docs/e2e.md): discover an order book, rest an order, cross it, see both execution streams and the
 * events list agree, cancel for good, receive signed webhooks, and find the fill in a committed batch that the
 * `decode` CLI replays to the chain's root.
 *
 * Agents: A (maker) registers on the claimed-agent path and is claimed through the link mailed to its owner (an SMTP
 * sink stands in for the owner's inbox); B (taker) registers on the wallet path (REGISTRATION_WALLET_OPEN=true),
 * which gives an execute key at once.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createPublicClient, http, type Address } from "viem";
import { committedLedgerAbi } from "../../generated/abis";
import { call, freshAccount, freshNonce, registerProof, show, type Json } from "./client";
import { startMailSink, type MailSink } from "../support/mail-sink";
import { assertProblem } from "./problems";
import { openSse, startWebhookReceiver, until, type SseReader, type WebhookReceiver } from "./receivers";
import { startStack, type E2eStack } from "./stack";
import { decodeCli } from "./decode-cli";

const MAKER_SIZE = "20000000"; // 20 shares
const TAKER_SIZE = "10000000"; // 10 shares: a partial fill of the maker's order
const MAKER_PRICE = "4500"; // YES bid at 0.45
const TAKER_PRICE = "5500"; // NO buy at 0.55 = YES ask at 0.45: crosses

interface Agent {
  name: string;
  key: string;
  ledgerAccount: string;
}

describe("Trading surface and realtime: two agents against npm start", { timeout: 900_000 }, () => {
  let stack: E2eStack;
  let base: string;
  let mail: MailSink;
  let hooks: WebhookReceiver;
  const streams: SseReader[] = [];
  const stamp = Date.now();
  let maker: Agent;
  let taker: Agent;
  let market: Json;
  let makerOrder: Json;
  let takerOrder: Json;
  let beforeCrossNonce = 0n;
  let makerSse: SseReader;
  let takerSse: SseReader;

  before(
    async () => {
      mail = await startMailSink();
      hooks = await startWebhookReceiver();
      stack = await startStack({
        env: { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_POLL_MS: "100", SMTP_URL: mail.url, REGISTRATION_WALLET_OPEN: "true" },
      });
      base = stack.baseUrl;
    },
    { timeout: 300_000 },
  );
  after(async () => {
    for (const s of streams) s.close();
    await stack?.stop();
    await hooks?.close();
    await mail?.close();
  });

  const post = (path: string, body: unknown, key: string, idem?: string) => call(base, "POST", path, body, { key, idem });
  const get = (path: string, key?: string) => call(base, "GET", path, undefined, { key });

  it("registers agent A on the claimed path and claims it through the mailed link; agent B on the wallet path", async () => {
    const a = freshAccount();
    const owner = `owner-${stamp}@example.com`;
    const regA = await call(base, "POST", "/register", {
      name: `e2e-maker-${stamp}`,
      ...(await registerProof(a, await freshNonce(stack.origin))),
      ownerEmail: owner,
    });
    assert.equal(regA.status, 201, show("POST", "/register (claimed path)", regA));
    const [, token] = await mail.waitFor(owner, /agents\/claim\?token=(clm_[A-Za-z0-9_-]+)/);
    const preview = await get(`/agents/claim?token=${token}`);
    assert.equal(preview.status, 200, show("GET", "/agents/claim", preview));
    assert.equal(preview.json.status, "pending");
    const claim = await call(base, "POST", "/agents/claim", { token });
    assert.equal(claim.status, 200, show("POST", "/agents/claim", claim));
    const meA = await get("/me", regA.json.apiKey);
    assert.equal(meA.json.tier, "execute", show("GET", "/me (claimed)", meA));
    assert.ok(meA.json.scopes.includes("trade:execute") && meA.json.scopes.includes("webhooks:manage"), `scopes ${meA.json.scopes}`);
    maker = { name: regA.json.name, key: regA.json.apiKey, ledgerAccount: meA.json.ledgerAccount };

    const b = freshAccount();
    const regB = await call(base, "POST", "/register", { name: `e2e-taker-${stamp}`, ...(await registerProof(b, await freshNonce(stack.origin))) });
    assert.equal(regB.status, 201, show("POST", "/register (wallet path)", regB));
    assert.equal(regB.json.status, "active");
    assert.equal(regB.json.tier, "execute");
    taker = { name: regB.json.name, key: regB.json.apiKey, ledgerAccount: regB.json.ledgerAccount };
  });

  it("subscribes both agents to webhooks and opens both SSE streams", async () => {
    for (const [agent, path] of [
      [maker, "/hook/maker"],
      [taker, "/hook/taker"],
    ] as const) {
      const sub = await post("/webhooks", { url: hooks.url(path), description: "e2e" }, agent.key);
      assert.equal(sub.status, 201, show("POST", "/webhooks", sub));
      assert.match(sub.json.secret, /^whsec_/);
      assert.equal(sub.json.account, agent.ledgerAccount);
      hooks.secret(path, sub.json.secret);
    }
    makerSse = openSse(base, maker.key);
    takerSse = openSse(base, taker.key);
    streams.push(makerSse, takerSse);
    for (const [s, agent] of [
      [makerSse, maker],
      [takerSse, taker],
    ] as const) {
      const ready = await until(
        "the SSE ready event",
        () => s.ready ?? undefined,
        () => s.errors,
      );
      assert.equal(ready.account, agent.ledgerAccount);
    }
  });

  it("discovers an ORDERBOOK market", async () => {
    const r = await get("/discover/markets?pricingModel=ORDERBOOK");
    assert.equal(r.status, 200, show("GET", "/discover/markets?pricingModel=ORDERBOOK", r));
    assert.ok(r.json.markets.length > 0, "no ORDERBOOK market listed");
    for (const m of r.json.markets as Json[]) assert.equal(m.pricingModel, "ORDERBOOK");
    market = (r.json.markets as Json[]).find((m) => m.state === "open") ?? r.json.markets[0];
  });

  it("A rests a bid and the depth shows it", async () => {
    const depth0 = await get(`/discover/markets/${market.address}/depth`);
    assert.equal(depth0.status, 200, show("GET", "depth", depth0));
    assert.equal(
      (depth0.json.bids as Json[]).find((l) => String(l.priceBps) === MAKER_PRICE),
      undefined,
      "the level is empty before A bids",
    );

    const placed = await post(
      "/orderbook/place-order",
      { market: market.address, outcome: 0, side: "buy", priceBps: MAKER_PRICE, size: MAKER_SIZE, timeInForce: "GTC", clientOrderId: "a-bid-1" },
      maker.key,
    );
    assert.equal(placed.status, 200, show("POST", "/orderbook/place-order (A)", placed));
    makerOrder = placed.json.orders[0];
    assert.equal(makerOrder.status, "open");
    assert.equal(makerOrder.remainingSize, MAKER_SIZE);
    assert.equal(makerOrder.clientOrderId, "a-bid-1");
    assert.match(placed.headers.get("x-fills-remaining") ?? "", /^\d+$/);

    const depth = await get(`/discover/markets/${market.address}/depth`);
    const level = (depth.json.bids as Json[]).find((l) => String(l.priceBps) === MAKER_PRICE);
    assert.ok(level, show("GET", "depth after A's bid", depth));
    assert.equal(String(level.size), MAKER_SIZE);
  });

  it("B crosses it; both receive execution:report over SSE with consecutive seqs, and /orderbook/events lists the same fill", async (t) => {
    const batches = await get("/ledger/batches?limit=1");
    beforeCrossNonce = batches.json.batches.length ? BigInt(batches.json.batches[0].nonce) : 0n;

    const crossed = await post(
      "/orderbook/place-order",
      { market: market.address, outcome: 1, side: "buy", priceBps: TAKER_PRICE, size: TAKER_SIZE, timeInForce: "IOC", clientOrderId: "b-take-1" },
      taker.key,
    );
    assert.equal(crossed.status, 200, show("POST", "/orderbook/place-order (B crosses)", crossed));
    takerOrder = crossed.json.orders[0];
    assert.equal(takerOrder.status, "filled", show("POST", "place-order (B)", crossed));
    assert.equal(takerOrder.filledSize, TAKER_SIZE);
    assert.equal(takerOrder.fills.length, 1);
    const takerFill = takerOrder.fills[0];
    assert.equal(takerFill.liquidity, "taker");
    assert.equal(takerFill.size, TAKER_SIZE);

    const depth = await get(`/discover/markets/${market.address}/depth`);
    const level = (depth.json.bids as Json[]).find((l) => String(l.priceBps) === MAKER_PRICE);
    assert.equal(String(level?.size), String(BigInt(MAKER_SIZE) - BigInt(TAKER_SIZE)), show("GET", "depth after the cross", depth));

    const fillOf = (s: SseReader) => s.reports.find((r) => r.envelope.data.kind === "fill" && r.envelope.data.tradeId === takerFill.tradeId);
    await until(
      "A's fill report on SSE",
      () => fillOf(makerSse),
      () => makerSse.reports,
    );
    await until(
      "B's fill report on SSE",
      () => fillOf(takerSse),
      () => takerSse.reports,
    );
    for (const [s, agent, who] of [
      [makerSse, maker, "A"],
      [takerSse, taker, "B"],
    ] as const) {
      const seqs = s.reports.map((r) => r.envelope.seq as number);
      assert.deepEqual(
        seqs,
        seqs.map((_, i) => i + 1),
        `${who}'s SSE seqs are consecutive from 1: ${seqs}`,
      );
      for (const r of s.reports) {
        assert.equal(r.envelope.type, "execution:report");
        assert.equal(r.envelope.channel, "execution");
        assert.equal(r.id, String(r.envelope.seq), "the SSE id is the report seq");
        assert.equal(r.envelope.data.account, agent.ledgerAccount);
      }
      const events = await post("/orderbook/events", { fromSeq: 1, limit: 100 }, agent.key);
      assert.equal(events.status, 200, show("POST", `/orderbook/events (${who})`, events));
      assert.deepEqual(
        events.json.events.map((e: Json) => e.seq),
        seqs,
        `${who}: events list = SSE seqs`,
      );
      const fill = (events.json.events as Json[]).find((e) => e.kind === "fill");
      assert.ok(fill, `${who}: the fill is listed`);
      assert.equal(fill.tradeId, takerFill.tradeId);
      assert.equal(String(fill.fillSize), TAKER_SIZE);
      assert.deepEqual(fill, { ...fillOf(s)!.envelope.data, market: fill.market }, `${who}: the listed fill is the streamed one`);
    }
    t.diagnostic(
      `SSE seqs: A ${makerSse.reports.map((r) => `${r.envelope.seq}:${r.envelope.data.kind}`)}; B ${takerSse.reports.map((r) => `${r.envelope.seq}:${r.envelope.data.kind}`)}`,
    );
    const makerFill = fillOf(makerSse)!.envelope.data;
    assert.equal(makerFill.liquidity, "maker");
    assert.equal(makerFill.orderId, makerOrder.orderId);
  });

  it("cancel is terminal: cancel, a second cancel and confirm-cancel all show the order final", async () => {
    const cancelled = await post("/orderbook/cancel-order", { orderId: makerOrder.orderId }, maker.key);
    assert.equal(cancelled.status, 200, show("POST", "/orderbook/cancel-order", cancelled));
    assert.equal(cancelled.json.order.status, "cancelled");
    assert.equal(cancelled.json.order.filledSize, TAKER_SIZE);

    const again = await post("/orderbook/cancel-order", { orderId: makerOrder.orderId }, maker.key);
    assertProblem(again, "CONFLICT", "second POST /orderbook/cancel-order");
    assert.equal(again.json.reason, "ORDER_NOT_OPEN");
    assert.equal(again.json.orderStatus, "cancelled");

    // Receipt-authoritative: answers once the cancellation is committed (a 503 COMMIT_PENDING asks to retry).
    const confirmed = await until("confirm-cancel", async () => {
      const r = await post("/orderbook/confirm-cancel", { orderId: makerOrder.orderId }, maker.key);
      return r.status === 503 && r.json.reason === "COMMIT_PENDING" ? undefined : r;
    });
    assert.equal(confirmed.status, 200, show("POST", "/orderbook/confirm-cancel", confirmed));
    assert.equal(confirmed.json.status, "cancelled");
    assert.equal(confirmed.json.final, true);
    assert.equal(confirmed.json.filledSize, TAKER_SIZE);
    const byClientId = await post("/orderbook/confirm-cancel", { clientOrderId: "a-bid-1" }, maker.key);
    assert.deepEqual(byClientId.json, confirmed.json, "confirm by clientOrderId agrees");

    const cancelReport = await until(
      "A's cancelled report on SSE",
      () => makerSse.reports.find((r) => r.envelope.data.kind === "cancelled"),
      () => makerSse.reports,
    );
    assert.equal(confirmed.json.lastSeq, cancelReport.envelope.seq);
    const seqs = makerSse.reports.map((r) => r.envelope.seq as number);
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => i + 1),
      `A's SSE seqs stay consecutive: ${seqs}`,
    );

    const open = await get(`/orderbook/orders?market=${market.address}`, maker.key);
    assert.equal(open.status, 200, show("GET", "/orderbook/orders", open));
    assert.equal(
      (open.json.orders as Json[]).find((o) => o.orderId === makerOrder.orderId),
      undefined,
      "the cancelled order is not open",
    );
    const depth = await get(`/discover/markets/${market.address}/depth`);
    assert.equal(
      (depth.json.bids as Json[]).find((l) => String(l.priceBps) === MAKER_PRICE),
      undefined,
      show("GET", "depth after cancel", depth),
    );
  });

  it("a webhook receiver verifies every delivery with standardwebhooks' Webhook.verify", async (t) => {
    for (const [agent, path, sse] of [
      [maker, "/hook/maker", makerSse],
      [taker, "/hook/taker", takerSse],
    ] as const) {
      const want = sse.reports.map((r) => r.envelope.seq as number);
      const mine = () => hooks.deliveries.filter((d) => d.path === path);
      await until(
        `webhook deliveries of seqs ${want} to ${path}`,
        () => {
          const got = new Set(mine().flatMap((d) => (d.message?.type === "execution:report" ? [d.message.data.seq as number] : [])));
          return want.every((s) => got.has(s)) ? true : undefined;
        },
        () => mine().map((d) => ({ error: d.error, seq: d.message?.data?.seq })),
      );
      for (const d of mine()) {
        assert.equal(d.error, null, `delivery ${d.headers["webhook-id"]} to ${path} failed verification: ${d.error}`);
        assert.match(d.headers["webhook-id"] ?? "", /^msg_/);
        assert.equal(d.message!.type, "execution:report");
        assert.equal(d.message!.data.report.account, agent.ledgerAccount);
      }
      const fill = mine().find((d) => d.message!.data.report.kind === "fill")!;
      const streamed = sse.reports.find((r) => r.envelope.data.kind === "fill")!;
      assert.deepEqual(fill.message!.data.report, streamed.envelope.data, "the webhook carries the streamed report");
    }
    t.diagnostic(`${hooks.deliveries.length} webhook deliveries, all verified`);
  });

  it("the fill is in a confirmed batch that `npx decode` replays to CommittedLedger.ledgerRoot()", async (t) => {
    const contracts = await get("/discover/contracts");
    const ledger = contracts.json.chains?.find((c: Json) => c.chainId === stack.chainId)?.committedLedger as Address | undefined;
    assert.ok(ledger, show("GET", "/discover/contracts", contracts));

    // The batch holding the fill was built after B's order: find it among the newer ones once confirmed, by
    // decoding each one's transaction with the CLI and looking for the MATCH of A (maker) and B (taker).
    const checked = new Set<string>();
    const found = await until(
      "a confirmed batch whose decoded payload holds the fill",
      async () => {
        const r = await get("/ledger/batches?limit=50");
        const newer = (r.json.batches as Json[]).filter((b) => BigInt(b.nonce) > beforeCrossNonce).sort((x, y) => Number(BigInt(x.nonce) - BigInt(y.nonce)));
        for (const b of newer) {
          if (b.status !== "confirmed") return undefined; // wait for it in nonce order
          if (checked.has(b.nonce)) continue;
          checked.add(b.nonce);
          const out = await decodeCli([b.txHash, "--rpc", stack.rpcUrl, "--ledger", ledger, "--json"]);
          assert.equal(out.code, 0, `npx decode ${b.txHash} --json exited ${out.code}: ${out.stderr.slice(-800)}`);
          const decoded = JSON.parse(out.stdout.trim().split("\n").at(-1)!) as Json;
          assert.equal(decoded.rootOk, true);
          assert.equal(decoded.root, b.root, `batch ${b.nonce}: the decoded root is the listed root`);
          const match = (decoded.operations as Json[]).find(
            (op) => op.type === "MATCH" && op.maker === maker.ledgerAccount && op.taker === taker.ledgerAccount && op.shares === TAKER_SIZE,
          );
          if (match) return { batch: b, match };
        }
        return undefined;
      },
      () => [...checked],
      90_000,
    );
    assert.equal(found.batch.status, "confirmed");
    assert.equal(found.match.marketId, market.marketId);
    assert.ok(found.batch.lastSeq >= found.batch.firstSeq);

    // Replay everything and compare with the root the contract holds (read again after, in case a batch landed).
    const client = createPublicClient({ transport: http(stack.rpcUrl) });
    const read = () =>
      Promise.all([
        client.readContract({ address: ledger, abi: committedLedgerAbi, functionName: "ledgerRoot" }),
        client.readContract({ address: ledger, abi: committedLedgerAbi, functionName: "batchNonce" }),
      ]);
    let verified: { root: string; chainRoot: string } | undefined;
    for (let attempt = 0; attempt < 5 && !verified; attempt++) {
      const [rootBefore, nonceBefore] = await read();
      const out = await decodeCli(["verify", "--rpc", stack.rpcUrl, "--ledger", ledger]);
      assert.equal(out.code, 0, `npx decode verify exited ${out.code}:\n${out.stdout}\n${out.stderr.slice(-800)}`);
      assert.match(out.stdout, /^root ok$/m);
      assert.match(out.stdout, /^commitment ok$/m);
      const m = /batch\(es\) verified; nonce (\d+) root (0x[0-9a-f]{64})/.exec(out.stdout);
      assert.ok(m, `npx decode verify printed no root:\n${out.stdout}`);
      const [rootAfter, nonceAfter] = await read();
      if (rootBefore === rootAfter && nonceBefore === nonceAfter && BigInt(m[1]!) === nonceAfter) verified = { root: m[2]!, chainRoot: rootAfter };
    }
    assert.ok(verified, "the chain kept moving during five verify runs");
    t.diagnostic(
      `fill in batch ${found.batch.nonce} (journal seqs ${found.batch.firstSeq}..${found.batch.lastSeq}, tx ${found.batch.txHash}): ${JSON.stringify(found.match)}; decode verify root ${verified.root}`,
    );
    assert.equal(verified.root, verified.chainRoot, "npx decode verify replays to CommittedLedger.ledgerRoot()");
  });

  it("stops on SIGTERM and leaves no process behind", async () => {
    for (const s of streams) s.close();
    const report = await stack.stop();
    assert.equal(report.exit, 0, `exit of npm start after SIGTERM; last lines:\n${stack.tail(30)}`);
    assert.deepEqual(report.leftover, [], "processes of the stack still running after SIGTERM");
  });
});
