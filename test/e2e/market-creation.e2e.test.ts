/**
 * Market creation as a new user meets it, against the real `npm start` stack (Hardhat chain, contracts, service,
 * Ponder): an agent with a fresh wallet key registers, then runs preflight → propose → accept → prepare-deploy →
 * commit-deploy for an LMSR binary and an ORDERBOOK market on the committed lane (PM) and a binary and a ternary LMSR
 * market on the on-chain lane (USDC), signing the prepared transactions with viem. Each market is listed at once and
 * traded by a second agent; the committed creations' BOND_LOCK and MARKET_SEED replay with `npx decode`. A tampered on-chain receipt (another creation's transaction) is refused and locks nothing.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createPublicClient, createWalletClient, http, maxUint256, type Address, type Hex, type PrivateKeyAccount } from "viem";
import { call, freshAccount, freshNonce, registerProof, show, type Json } from "./client";
import { assertProblem } from "./problems";
import { until } from "./receivers";
import { startStack, type E2eStack } from "./stack";
import { decodeCli } from "./decode-cli";
import { signPreparedIntent } from "../support/stack/onchain";

const DAY = 86_400_000;
const PM = 1_000_000n;
const ERC20_APPROVE = [
  {
    type: "function",
    name: "approve",
    stateMutability: "nonpayable",
    inputs: [
      { name: "spender", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [{ type: "bool" }],
  },
] as const;
const ERC20_MINT = [
  {
    type: "function",
    name: "mint",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [],
  },
] as const;

interface Agent {
  key: string;
  account: PrivateKeyAccount;
  ledgerAccount: string;
}

describe("market creation end to end: both lanes, both pricing models", { timeout: 600_000 }, () => {
  let stack: E2eStack;
  let base: string;
  let creator: Agent;
  let trader: Agent;
  let usdc: Address;
  const created: Record<string, Json> = {};
  const chain = () => ({
    id: stack.chainId,
    name: "local",
    nativeCurrency: { name: "ETH", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [stack.rpcUrl] } },
  });
  const publicClient = () => createPublicClient({ chain: chain(), transport: http(stack.rpcUrl) });
  const wallet = (a: Agent) => createWalletClient({ chain: chain(), transport: http(stack.rpcUrl), account: a.account });

  async function register(name: string): Promise<Agent> {
    const account = freshAccount();
    const r = await call(base, "POST", "/register", { name, ...(await registerProof(account, await freshNonce(stack.origin))) });
    assert.equal(r.status, 201, show("POST", "/register", r));
    // Gas for the fresh wallet (a local chain), and test USDC (its mint is open).
    await publicClient().request({ method: "hardhat_setBalance" as never, params: [account.address, "0x56BC75E2D63100000"] as never });
    const a = { key: r.json.apiKey as string, account, ledgerAccount: (r.json.ledgerAccount as string).toLowerCase() };
    await send(a, { to: usdc, data: undefined, abi: ERC20_MINT, fn: "mint", args: [account.address, 10_000n * PM] });
    return a;
  }

  async function send(a: Agent, tx: { to: Address; data?: Hex; abi?: readonly unknown[]; fn?: string; args?: readonly unknown[] }): Promise<Hex> {
    const w = wallet(a);
    const hash = tx.abi
      ? await w.writeContract({
          chain: chain(),
          account: a.account,
          address: tx.to,
          abi: tx.abi as never,
          functionName: tx.fn as never,
          args: tx.args as never,
        })
      : await w.sendTransaction({ chain: chain(), account: a.account, to: tx.to, data: tx.data });
    const receipt = await publicClient().waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success", `tx ${hash}`);
    return hash;
  }

  const api = (a: Agent) => (method: string, path: string, body?: unknown) => call(base, method, path, body, { key: a.key });

  async function create(name: string, body: Json): Promise<Json> {
    const c = api(creator);
    const pre = await c("POST", "/negotiate/preflight", body);
    assert.equal(pre.status, 200, show("POST", "/negotiate/preflight", pre));
    assert.deepEqual(pre.json.failures, [], show("POST", "/negotiate/preflight", pre));
    const proposed = await c("POST", "/negotiate/propose", body);
    assert.equal(proposed.status, 201, show("POST", "/negotiate/propose", proposed));
    const id = proposed.json.id as string;
    assert.equal((await c("POST", `/negotiate/${id}/accept`, {})).status, 200);
    const prepared = await c("POST", `/negotiate/${id}/prepare-deploy`, {});
    assert.equal(prepared.status, 200, show("POST", "prepare-deploy", prepared));
    let txHash: Hex | undefined;
    for (const tx of prepared.json.transactions as Json[]) {
      assert.equal(tx.chainId, stack.chainId);
      txHash = await send(creator, { to: tx.to as Address, data: tx.data as Hex });
    }
    const committed = await c("POST", `/negotiate/${id}/commit-deploy`, txHash ? { txHash } : {});
    assert.equal(committed.status, 201, show("POST", "commit-deploy", committed));
    const listed = await c("GET", `/discover/markets/${committed.json.market.address}`);
    assert.equal(listed.status, 200, `${name} is listed at once: ${show("GET", "market", listed)}`);
    assert.equal(listed.json.externalId, body.externalId);
    created[name] = { ...committed.json, negotiationId: id, prepared: prepared.json, txHash };
    return committed.json;
  }

  const request = (over: Json): Json => ({
    title: "Will this end-to-end market trade?",
    description: "Resolves YES when the test's trade settles.",
    category: "TECH",
    closeTime: new Date(Date.now() + 30 * DAY).toISOString(),
    resolutionSource: { type: "creator", note: "the e2e test" },
    ...over,
  });

  before(async () => {
    stack = await startStack({ env: { REGISTRATION_WALLET_OPEN: "true", SEED_DEMO_MARKETS: "false" } });
    base = stack.baseUrl;
    const config = await call(base, "GET", "/markets/config");
    usdc = (config.json.collaterals as Json[]).find((c) => c.symbol === "USDC")!.token as Address;
    creator = await register(`creator-${Date.now()}`);
    trader = await register(`trader-${Date.now()}`);
  });
  after(async () => {
    const report = await stack?.stop();
    if (report) assert.deepEqual(report.leftover, []);
  });

  it("creates an LMSR binary market on the committed lane and trades it", async () => {
    const m = await create("lmsr", request({ externalId: "e2e-lmsr", pricingModel: "automated", collateral: "PM", seed: String(100n * PM) }));
    assert.equal(m.lane, "committed");
    const t = api(trader);
    const order = { market: m.market.address, outcome: 0, side: "buy", shares: String(5n * PM), slippageBps: 500 };
    const q = await t("POST", "/trade/quote", order);
    assert.equal(q.status, 200, show("POST", "/trade/quote", q));
    const p = await t("POST", "/trade/prepare", { ...order, maxCost: q.json.maxCost });
    assert.equal(p.status, 201, show("POST", "/trade/prepare", p));
  });

  it("creates an ORDERBOOK market on the committed lane and trades it", async () => {
    const m = await create("orderbook", request({ externalId: "e2e-ob", pricingModel: "ORDERBOOK", collateral: "PM" }));
    const bid = await api(creator)("POST", "/orderbook/place-order", { market: m.market.address, outcome: 0, side: "buy", priceBps: "5200", size: String(PM) });
    assert.equal(bid.status, 200, show("POST", "place-order", bid));
    const take = await api(trader)("POST", "/orderbook/place-order", {
      market: m.market.address,
      outcome: 1,
      side: "buy",
      priceBps: "4800",
      size: String(PM),
      timeInForce: "IOC",
    });
    assert.equal(take.status, 200, show("POST", "place-order", take));
    assert.equal(take.json.orders[0].status, "filled");
  });

  it("the committed creations' BOND_LOCK and MARKET_SEED are in confirmed batches that `npx decode` replays (rootOk, commitmentOk)", async (t) => {
    const contracts = await call(base, "GET", "/discover/contracts");
    const ledger = contracts.json.chains?.find((c: Json) => c.chainId === stack.chainId)?.committedLedger as Address | undefined;
    assert.ok(ledger, show("GET", "/discover/contracts", contracts));
    const lmsr = created.lmsr!.market.marketId as string;
    const book = created.orderbook!.market.marketId as string;
    // What each creation must have journaled: the creator's bond on both, the creator's seed into the LMSR pool.
    const wanted = [
      { type: "BOND_LOCK", marketId: lmsr },
      { type: "MARKET_SEED", marketId: lmsr },
      { type: "BOND_LOCK", marketId: book },
    ];
    const seen: Json[] = [];
    const checked = new Set<string>();
    await until(
      "confirmed batches holding both creations' ops",
      async () => {
        const r = await call(base, "GET", "/ledger/batches?limit=50");
        for (const b of (r.json.batches as Json[]).sort((x, y) => Number(BigInt(x.nonce) - BigInt(y.nonce)))) {
          if (b.status !== "confirmed" || checked.has(b.nonce)) continue;
          checked.add(b.nonce);
          const out = await decodeCli([b.txHash, "--rpc", stack.rpcUrl, "--ledger", ledger, "--json"]);
          assert.equal(out.code, 0, `npx decode ${b.txHash} --json exited ${out.code}: ${out.stderr.slice(-800)}`);
          const decoded = JSON.parse(out.stdout.trim().split("\n").at(-1)!) as Json;
          assert.equal(decoded.rootOk, true, `batch ${b.nonce}: root`);
          assert.equal(decoded.commitmentOk, true, `batch ${b.nonce}: journal commitment`);
          assert.equal(decoded.root, b.root, `batch ${b.nonce}: the decoded root is the listed root`);
          for (const op of decoded.operations as Json[]) if (op.type === "BOND_LOCK" || op.type === "MARKET_SEED") seen.push({ ...op, nonce: b.nonce });
        }
        const missing = wanted.filter((w) => !seen.some((op) => op.type === w.type && String(op.marketId) === w.marketId));
        return missing.length === 0 ? true : undefined;
      },
      () => ({ checked: [...checked], seen }),
      120_000,
    );
    const bond = seen.find((op) => op.type === "BOND_LOCK" && String(op.marketId) === lmsr)!;
    assert.equal(String(bond.account).toLowerCase(), creator.ledgerAccount, "the creator's bond");
    assert.equal(String(bond.amount), created.lmsr!.locked.bond);
    const seed = seen.find((op) => op.type === "MARKET_SEED" && String(op.marketId) === lmsr)!;
    assert.equal(String(seed.amount), created.lmsr!.locked.seed);
    t.diagnostic(`creation ops decoded: ${JSON.stringify(seen)}`);
  });

  for (const [name, outcomes] of [
    ["onchain-binary", ["Yes", "No"]],
    ["onchain-ternary", ["Low", "Mid", "High"]],
  ] as const) {
    it(`creates an ${outcomes.length}-outcome LMSR market on the on-chain lane (viem-signed transactions) and trades it`, async () => {
      const m = await create(name, request({ externalId: `e2e-${name}`, pricingModel: "automated", collateral: "USDC", outcomes, seed: String(200n * PM) }));
      assert.equal(m.lane, "onchain");
      assert.equal(m.market.outcomes.length, outcomes.length);
      const t = api(trader);
      const order = { market: m.market.address, outcome: outcomes.length - 1, side: "buy", shares: String(3n * PM) };
      // The trade lane reads the market from the indexer's projection: it follows within a few blocks.
      let quote = await t("POST", "/trade/quote", order);
      for (let i = 0; quote.status !== 200 && i < 120; i++) {
        await new Promise((r) => setTimeout(r, 500));
        quote = await t("POST", "/trade/quote", order);
      }
      assert.equal(quote.status, 200, show("POST", "/trade/quote", quote));
      const router = (await t("POST", "/trade/prepare", order)).json.approvals?.[0]?.spender as Address | undefined;
      if (router) await send(trader, { to: usdc, abi: ERC20_APPROVE, fn: "approve", args: [router, maxUint256] });
      const prepared = await t("POST", "/trade/prepare", { ...order, slippageBps: 200 });
      assert.equal(prepared.status, 201, show("POST", "/trade/prepare", prepared));
      const td = prepared.json.typedData;
      const signature = await signPreparedIntent(trader.account, td);
      const submitted = await t("POST", "/trade/submit", { digest: prepared.json.digest, signature });
      assert.equal(submitted.status, 200, show("POST", "/trade/submit", submitted));
      // "failed" here is the relay's send refused (its error says why), not a slow projection.
      assert.equal(submitted.json.status, "submitted", show("POST", "/trade/submit", submitted));
      let intent = await t("GET", `/trade/intent/${prepared.json.digest}`);
      for (let i = 0; intent.json.status !== "executed" && i < 120; i++) {
        await new Promise((r) => setTimeout(r, 500));
        intent = await t("GET", `/trade/intent/${prepared.json.digest}`);
      }
      assert.equal(intent.json.status, "executed", show("GET", "intent", intent));
    });
  }

  it("refuses a tampered on-chain receipt (another negotiation's creation) and locks nothing", async () => {
    const c = api(creator);
    const before = (await c("GET", "/me")).json;
    const proposed = await c(
      "POST",
      "/negotiate/propose",
      request({ externalId: "e2e-tampered", pricingModel: "automated", collateral: "USDC", seed: String(200n * PM) }),
    );
    assert.equal(proposed.status, 201, show("POST", "propose", proposed));
    const id = proposed.json.id as string;
    assert.equal((await c("POST", `/negotiate/${id}/accept`, {})).status, 200);
    const r = await c("POST", `/negotiate/${id}/commit-deploy`, { txHash: created["onchain-binary"]!.txHash });
    assertProblem(r, "DEPLOY_RECEIPT_MISMATCH", "commit-deploy with another creation's txHash");
    assert.equal(r.json.reason, "terms_hash");
    const again = await c("POST", `/negotiate/${id}/commit-deploy`, { txHash: `0x${"ab".repeat(32)}` });
    assertProblem(again, "DEPLOY_RECEIPT_MISMATCH", "commit-deploy with an unknown txHash");
    const after = (await c("GET", "/me")).json;
    assert.equal(after.reputation.creation.activeMarkets, before.reputation.creation.activeMarkets, "nothing listed");
    const exists = await c("GET", "/discover/markets/exists?externalId=e2e-tampered");
    assert.equal(exists.json.exists, false);
    const rep = await c("GET", "/discover/reputation");
    assert.equal(rep.json.creation.activeMarkets, 4);
    const mine = await c("GET", `/discover/markets?creator=${creator.account.address.toLowerCase()}&pageSize=20`);
    assert.deepEqual(mine.json.markets.map((m: Json) => m.externalId).sort(), ["e2e-lmsr", "e2e-ob", "e2e-onchain-binary", "e2e-onchain-ternary"]);
  });
});
