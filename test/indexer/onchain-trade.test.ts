/**
 * End to end on a real Hardhat node, a real Ponder process (PGlite) and the API over HTTP: an LMSR market created
 * after the indexer started is projected (factory pattern), an agent quotes, meets the approval 409, prepares,
 * signs and submits an intent; the router executes it, the indexer projects it, and the API shows the trade and the
 * holder balance. Then a reorg (evm_snapshot / evm_revert) removes a second trade from the API.
 */
import { randomUUID } from "node:crypto";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Address, Hex } from "viem";
import { keccak256, maxUint256, parseEventLogs } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createLocalAgent } from "../../api/domain/auth/local-agents";
import { DEV_OPERATOR_KEY } from "../../relayer/dev-accounts";
import { committedLedgerAbi, lmsrMarketAbi, testUSDCAbi } from "../../generated/abis";
import { LedgerChain } from "../../relayer/batcher/chain";
import { onchainTrades } from "../../api/domain/onchain/reads";
import { eventually, signPreparedIntent, startOnchainStack, type OnchainStack } from "../support/stack/onchain";

describe("on-chain trade through the API, indexer and router", { timeout: 300_000 }, () => {
  let s: OnchainStack;
  let market: Address;
  let apiKey: string;
  let walletKey: Hex;
  let wallet: Address;

  before(async () => {
    s = await startOnchainStack();
    market = (await s.createMarket()).toLowerCase() as Address;
    const agent = await createLocalAgent(s.svc.ctx.db, s.svc.ctx.clock, { name: `trader-${Date.now()}`, tier: "execute" });
    apiKey = agent.apiKey;
    walletKey = agent.walletPrivateKey!;
    wallet = agent.walletAddress as Address;
  });
  after(async () => {
    await s?.stop();
  });

  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${s.svc.baseUrl}${path}`, {
      method,
      // Every write carries an Idempotency-Key (a fresh one unless the test names it).
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        ...(method === "POST" ? { "idempotency-key": randomUUID() } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it("projects the market, quotes, answers 409 without approval, prepares, relays and shows the trade and holder", async () => {
    // The market was created after Ponder started: the factory pattern picked it up without a restart.
    const listed = await eventually(async () => (await s.ponderFetch(`/onchain/markets/${market}`)).market ?? undefined);
    assert.equal(listed.outcomeCount, 2);

    const health = await fetch(`${s.svc.baseUrl}/health/projection`).then((r) => r.json() as Promise<any>);
    assert.equal(health.source, "indexer");
    assert.equal(health.cursors[0].chainId, s.chainId);
    assert.match(health.cursors[0].blockNumber, /^\d+$/); // digits string (contract: Projection freshness)
    assert.match(health.cursors[0].headBlockNumber, /^\d+$/);
    assert.ok(Number.isInteger(health.cursors[0].lagSeconds));

    const order = { market, outcome: 0, side: "buy", shares: "10000000" };
    const quote = await api("POST", "/trade/quote", order);
    assert.equal(quote.status, 200, JSON.stringify(quote.body));
    assert.equal(quote.body.lane, "onchain");
    const cost = BigInt(quote.body.amount);
    assert.ok(cost > 5_000_000n && cost < 10_000_000n, `cost ${cost}`); // 10 shares at p≈0.5 and up
    assert.equal(BigInt(quote.body.limit), (cost * 10_100n + 9_999n) / 10_000n); // default 100 bps

    const trader = await s.fundedWallet(walletKey, 100_000_000n);
    const noApproval = await api("POST", "/trade/prepare", order);
    assert.equal(noApproval.status, 409, JSON.stringify(noApproval.body));
    assert.equal(noApproval.body.code, "CONFLICT");
    const router = s.deployment.collaterals.find((c) => c.symbol === "USDC")!.router.toLowerCase();
    assert.equal(noApproval.body.approvals[0].kind, "erc20_approve");
    assert.equal(noApproval.body.approvals[0].spender.toLowerCase(), router);

    const approve = await trader.writeContract({
      chain: s.chain,
      account: trader.account!,
      address: s.deployment.contracts.TestUSDC!.address,
      abi: testUSDCAbi,
      functionName: "approve",
      args: [router as Address, maxUint256],
    });
    await s.client.waitForTransactionReceipt({ hash: approve });

    const prepared = await api("POST", "/trade/prepare", { ...order, slippageBps: 50 });
    assert.equal(prepared.status, 201, JSON.stringify(prepared.body));
    const td = prepared.body.typedData;
    assert.equal(td.domain.chainId, s.chainId);
    assert.equal(td.domain.verifyingContract.toLowerCase(), router);
    const signature = await signPreparedIntent(privateKeyToAccount(walletKey), td);

    const badSig = await api(
      "POST",
      "/trade/submit",
      { digest: prepared.body.digest, signature: signature.slice(0, -2) + (signature.endsWith("1b") ? "1c" : "1b") },
      { "idempotency-key": `bad-${Date.now()}` },
    );
    assert.equal(badSig.status, 400, JSON.stringify(badSig.body));

    const submitted = await api("POST", "/trade/submit", { digest: prepared.body.digest, signature }, { "idempotency-key": `ok-${Date.now()}` });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    assert.equal(submitted.body.status, "submitted");

    const executed = await eventually(async () => {
      const r = await api("GET", `/trade/intent/${prepared.body.digest}`);
      return r.body.status === "executed" ? r.body : undefined;
    });
    assert.equal(executed.execution.txHash, submitted.body.txHash);
    assert.equal(executed.execution.shares, "10000000");

    // The discovery routes (catalog sync + onchain data source) show the trade and the new holder balance.
    const trades = await eventually(async () => {
      const r = await api("GET", `/discover/markets/${market}/trades`);
      return r.status === 200 && r.body.trades.length === 1 ? r.body : undefined;
    });
    assert.equal(trades.source, "onchain");
    assert.equal(trades.trades[0].size, "10000000");
    assert.equal(trades.trades[0].takerSide, "buy");
    const holders = await api("GET", `/discover/markets/${market}/holders`);
    assert.equal(holders.status, 200, JSON.stringify(holders.body));
    const yes = holders.body.outcomes[0];
    assert.deepEqual(yes.holders, [{ account: wallet.toLowerCase(), size: "10000000" }]);
    assert.equal(yes.outstanding, "10000000");

    // Depth: the LMSR ladder from the projected q/b equals the contract's own quoteBuy at every level.
    const depth = await api("GET", `/discover/markets/${market}/depth`);
    assert.equal(depth.status, 200, JSON.stringify(depth.body));
    assert.equal(depth.body.source, "onchain");
    for (const o of depth.body.outcomes) {
      assert.equal(o.ladder.length, 5);
      for (const level of o.ladder) {
        const onChain = await s.client.readContract({ address: market, abi: lmsrMarketAbi, functionName: "quoteBuy", args: [o.index, BigInt(level.size)] });
        assert.equal(level.cost, onChain.toString());
      }
    }
    const chart = await api("GET", `/discover/markets/${market}/chart?window=1H`);
    assert.equal(chart.status, 200, JSON.stringify(chart.body));
    assert.equal(chart.body.source, "onchain");
    assert.deepEqual(chart.body.frames.map((f: any) => f.outcome).sort(), [0, 1]);
    const [pYes, pNo] = chart.body.latest.probabilities;
    assert.ok(pYes > 0.5 && Math.abs(pYes + pNo - 1) < 1e-5, `${pYes} ${pNo}`);

    // List row and detail follow the projection too (catalog sync): the moved price, one trade and its volume.
    const notional = trades.trades[0].notional as string;
    assert.equal(BigInt(notional), cost); // a buy pays the quoted cost and no fee; volume = amount + fee
    const detail = await eventually(async () => {
      const r = await api("GET", `/discover/markets/${market}`);
      return r.status === 200 && r.body.tradeCount === 1 ? r.body : undefined;
    });
    assert.equal(detail.settlement, "onchain");
    assert.deepEqual(
      detail.outcomes.map((o: any) => o.probability),
      depth.body.outcomes.map((o: any) => o.probability),
    );
    assert.ok(detail.outcomes[0].probability > 0.5, JSON.stringify(detail.outcomes));
    assert.equal(detail.volumeTotal, notional);
    assert.equal(detail.volume24h, notional);
    assert.equal(detail.lastTradeAt, trades.trades[0].at);
    const listed24h = await api("GET", `/discover/markets?chainId=${s.chainId}&sort=volume_24h&pageSize=100`);
    assert.equal(listed24h.status, 200, JSON.stringify(listed24h.body));
    const row = listed24h.body.markets[0]; // the only market of this chain that traded ranks first
    assert.equal(row.address, market);
    assert.deepEqual(row.outcomes, detail.outcomes);
    assert.equal(row.volume24h, notional);
    assert.equal(row.volumeTotal, notional);
    assert.equal(row.lastTradeAt, detail.lastTradeAt);
    assert.equal(s.svc.services.onchain.reader.kind, process.env.DATABASE_URL ? "postgres-views" : "ponder-http");

    // Replaying the same signed intent is refused before it reaches the chain.
    const again = await api("POST", "/trade/submit", { digest: prepared.body.digest, signature }, { "idempotency-key": `again-${Date.now()}` });
    assert.equal(again.status, 409);
  });

  it("a reorged trade disappears from the API", async () => {
    const before = (await api("GET", `/discover/markets/${market}/trades`)).body.trades.length;
    const snapshot = await s.client.request({ method: "evm_snapshot" as any, params: [] as any });
    const order = { market, outcome: 1, side: "buy", shares: "3000000" };
    const prepared = await api("POST", "/trade/prepare", order);
    assert.equal(prepared.status, 201, JSON.stringify(prepared.body));
    const td = prepared.body.typedData;
    const signature = await signPreparedIntent(privateKeyToAccount(walletKey), td);
    const submitted = await api("POST", "/trade/submit", { digest: prepared.body.digest, signature }, { "idempotency-key": `reorg-${Date.now()}` });
    assert.equal(submitted.body.status, "submitted", JSON.stringify(submitted.body));
    await eventually(async () => ((await s.ponderFetch(`/onchain/markets/${market}/trades`)).trades.length === before + 1 ? true : undefined));
    const visible = await api("GET", `/discover/markets/${market}/trades`);
    assert.equal(visible.body.trades.length, before + 1);

    await s.client.request({ method: "evm_revert" as any, params: [snapshot] as any });
    await s.client.request({ method: "hardhat_mine" as any, params: ["0x3"] as any });
    await eventually(async () => ((await s.ponderFetch(`/onchain/markets/${market}/trades`)).trades.length === before ? true : undefined), 30_000);
    const after = await api("GET", `/discover/markets/${market}/trades`);
    assert.equal(after.body.trades.length, before);
    assert.ok(!after.body.trades.some((t: any) => t.size === "3000000"));
    const holders = await api("GET", `/discover/markets/${market}/holders`);
    assert.deepEqual(holders.body.outcomes[1].holders, []);
    const intent = await api("GET", `/trade/intent/${prepared.body.digest}`);
    assert.notEqual(intent.body.status, "executed");
    // The catalog copy (list/detail) rolls back with the projection.
    const detail = await eventually(async () => {
      const r = await api("GET", `/discover/markets/${market}`);
      return r.body.tradeCount === before ? r.body : undefined;
    });
    assert.equal(detail.volume24h, detail.volumeTotal);
  });

  it("projects a journal batch the operator commits, read through the API's projection reader", async () => {
    // As the batcher would (relayer/batcher/chain.ts): the next nonce on the chain's head, with the operator key.
    const chain = new LedgerChain(s.rpcUrl, s.deployment.contracts.CommittedLedger!.address, DEV_OPERATOR_KEY as Hex);
    const head = await chain.head();
    const payload = "0x504d4a350100" as Hex;
    const txHash = await chain.send({
      nonce: head.nonce + 1n,
      prevRoot: head.root,
      root: keccak256("0x01"),
      prevCommitment: head.commitment,
      payloadHash: keccak256(payload),
      payload,
    });
    const receipt = await s.client.waitForTransactionReceipt({ hash: txHash });
    const [event] = parseEventLogs({ abi: committedLedgerAbi, eventName: "JournalBatchCommitted", logs: receipt.logs });
    assert.ok(event, "the commit emitted JournalBatchCommitted");

    const { reader } = s.svc.services.onchain;
    const row = await eventually(async () => (await reader.ledgerBatches(10)).find((b) => b.nonce === event.args.nonce.toString()));
    assert.deepEqual(
      {
        ...row,
        root: row.root.toLowerCase(),
        journalCommitment: row.journalCommitment?.toLowerCase(),
        payloadHash: row.payloadHash?.toLowerCase(),
        txHash: row.txHash.toLowerCase(),
      },
      {
        nonce: (head.nonce + 1n).toString(),
        kind: "journal",
        root: event.args.newRoot.toLowerCase(),
        journalCommitment: event.args.journalCommitment.toLowerCase(),
        payloadHash: event.args.payloadHash.toLowerCase(),
        payloadBytes: 6,
        matchCount: null,
        creditCount: null,
        eventsEmitted: null,
        txHash: receipt.transactionHash.toLowerCase(),
        blockNumber: receipt.blockNumber.toString(),
        timestamp: row.timestamp,
      },
    );
    assert.equal(event.args.payloadHash, keccak256(payload));
    assert.equal(event.args.journalCommitment, (await chain.head()).commitment);
  });

  it("dispatches by lane: unknown market 404, a committed market to the exchange, sell needs the ERC-1155 approval", async () => {
    const unknown = await api("POST", "/trade/quote", { market: "0x000000000000000000000000000000000000dead", outcome: 0, side: "buy", shares: "1000" });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, "MARKET_NOT_FOUND");
    const books = await api("GET", `/discover/markets?pricingModel=ORDERBOOK&chainId=${s.chainId}`);
    const committed = books.body.markets.find((m: { settlement: string }) => m.settlement === "committed");
    assert.ok(committed, "the demo order books are listed on the stack's chain");
    const pm = await api("POST", "/trade/quote", { market: committed.address, outcome: 0, side: "buy", shares: "1000" });
    assert.equal(pm.status, 200, JSON.stringify(pm.body));
    assert.equal(pm.body.lane, "committed");
    const sell = await api("POST", "/trade/prepare", { market, outcome: 0, side: "sell", shares: "1000000" });
    assert.equal(sell.status, 409, JSON.stringify(sell.body));
    assert.equal(sell.body.approvals[0].kind, "erc1155_set_approval_for_all");
    const page1 = await onchainTrades(s.svc.services.onchain, market, 1);
    assert.equal(page1!.trades.length, 1);
    assert.match(page1!.nextCursor!, /^\d+:\d+$/);
    const page2 = await onchainTrades(s.svc.services.onchain, market, 1, page1!.nextCursor!);
    assert.deepEqual([page2!.trades.length, page2!.nextCursor], [0, null]);
    const tooMuchSlippage = await api("POST", "/trade/quote", { market, outcome: 0, side: "buy", shares: "1000", slippageBps: 1001 });
    assert.equal(tooMuchSlippage.status, 400);
  });

  // Issue 19: a committed LMSR buy above 10^18 shares answered INSUFFICIENT_OUTSTANDING (a sell reason) while the
  // onchain lane answered the same body otherwise. One bound (1..10^18, the engine's MAX_ORDER_SIZE) is checked by the
  // shared schema before a lane is chosen (api/domain/trading/trade-request.ts; docs/trading.md).
  it("one rule for oversize shares on both lanes: the same body above 10^18 is the same 400 INVALID_PAYLOAD on the onchain and the committed LMSR", async () => {
    const automated = await api("GET", `/discover/markets?pricingModel=automated&chainId=${s.chainId}&pageSize=100`);
    const committed = automated.body.markets.find((m: { settlement: string }) => m.settlement === "committed");
    assert.ok(committed, "a committed automated (LMSR) market is listed on the stack's chain");
    const lanes = { onchain: market, committed: committed.address as string };
    // Within the bound each market answers from its own lane: both lanes are really there.
    for (const [lane, address] of Object.entries(lanes)) {
      const ok = await api("POST", "/trade/quote", { market: address, outcome: 0, side: "buy", shares: "1000000" });
      assert.equal(ok.status, 200, `${lane}: ${JSON.stringify(ok.body)}`);
      assert.equal(ok.body.lane, lane);
    }
    const answers = new Map<string, unknown>();
    for (const shares of [(10n ** 18n + 1n).toString(), (10n ** 19n).toString(), "1".repeat(31)]) {
      for (const path of ["/trade/quote", "/trade/prepare"]) {
        for (const side of ["buy", "sell"]) {
          for (const [lane, address] of Object.entries(lanes)) {
            const r = await api("POST", path, { market: address, outcome: 0, side, shares });
            assert.equal(r.status, 400, `${lane} ${path} ${side} ${shares}: ${JSON.stringify(r.body)}`);
            const { code, field, location, errors } = r.body;
            assert.equal(code, "INVALID_PAYLOAD");
            assert.equal(field, "shares");
            answers.set(`${lane} ${path} ${side} ${shares}`, { code, field, location, errors });
          }
          const key = `${path} ${side} ${shares}`;
          assert.deepEqual(answers.get(`onchain ${key}`), answers.get(`committed ${key}`), `the same answer on both lanes: ${key}`);
        }
      }
    }
  });
});
