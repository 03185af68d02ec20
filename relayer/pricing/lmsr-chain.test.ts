/**
 * The off-chain LMSR math against the real contract: a Hardhat node, the repo's deployAll, one binary and one
 * ternary market, and random buys/sells (fast-check, bounded). Every quote, executed cost, proceeds, fee, price and
 * outstanding share count must match to the base unit.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { createPublicClient, createWalletClient, http, parseEventLogs, zeroHash, type Address, type Log } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEV_DEPLOYER_KEY, DEV_TREASURY_ADDRESS } from "../dev-accounts";
import { lmsrFactoryAbi, lmsrMarketAbi, outcomeTokenAbi, testUSDCAbi } from "../../generated/abis";
import type { Deployment } from "../../decoder/deployment";
import { bFromSeed, prices, quoteBuyForCost, quoteBuyShares, quoteSell, applyTrade, type LmsrState } from "./lmsr";
import { rpcChain } from "../rpc-chain";
import { startDeployedChain, type DeployedChain } from "../../test/support/stack/deployed-chain";

const BIG = 10n ** 18n;
let stack: DeployedChain | undefined;
let rpcUrl = "";
let record: Deployment;

before(async () => {
  stack = await startDeployedChain();
  ({ rpcUrl, record } = stack);
});
after(async () => {
  await stack?.stop();
});

function clients() {
  const chainDef = rpcChain(8453, rpcUrl);
  const pc = createPublicClient({ chain: chainDef, transport: http(rpcUrl) });
  const wallet = createWalletClient({ chain: chainDef, account: privateKeyToAccount(DEV_DEPLOYER_KEY), transport: http(rpcUrl) });
  return { pc, wallet, me: wallet.account.address };
}

const created = (receipt: { logs: Log[] }) => parseEventLogs({ abi: lmsrFactoryAbi, logs: receipt.logs, eventName: "MarketCreated" })[0]!.args;

async function createMarket(factoryName: "BinaryFactory" | "TernaryFactory", seed: bigint, sellFee: number, winFee: number) {
  const { pc, wallet, me } = clients();
  const usdc = record.contracts.TestUSDC!.address;
  const factory = record.contracts[factoryName]!.address;
  const send = async (address: Address, abi: readonly unknown[], functionName: string, args: unknown[]) => {
    const hash = await wallet.writeContract({ address, abi: abi as never, functionName: functionName as never, args: args as never });
    const receipt = await pc.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success", `${functionName} failed`);
    return receipt;
  };
  await send(usdc, testUSDCAbi, "mint", [me, BIG]);
  await send(usdc, testUSDCAbi, "approve", [factory, BIG]);
  // The factory stamps its fee defaults into the market: set the ones under test first (the deployer is the admin).
  await send(factory, lmsrFactoryAbi, "setFeeDefaults", [sellFee, winFee]);
  const now = (await pc.getBlock()).timestamp;
  const receipt = await send(factory, lmsrFactoryAbi, "createMarket", [usdc, seed, now + 86_400n, zeroHash, `pricing test ${factoryName}`]);
  assert.deepEqual([created(receipt).sellExitFeeBps, created(receipt).winningsExitFeeBps], [sellFee, winFee]);
  const market = created(receipt).market;
  await send(usdc, testUSDCAbi, "approve", [market, BIG]);
  const read = <T>(functionName: string, args: unknown[] = []) =>
    pc.readContract({ address: market, abi: lmsrMarketAbi, functionName: functionName as never, args: args as never }) as Promise<T>;
  const balance = (who: Address) => pc.readContract({ address: usdc, abi: testUSDCAbi, functionName: "balanceOf", args: [who] });
  const held = async (outcome: number) => {
    const marketId = await read<bigint>("marketId");
    const id = await pc.readContract({
      address: record.contracts.OutcomeToken!.address,
      abi: outcomeTokenAbi,
      functionName: "tokenId",
      args: [marketId, BigInt(outcome)],
    });
    return pc.readContract({ address: record.contracts.OutcomeToken!.address, abi: outcomeTokenAbi, functionName: "balanceOf", args: [me, id] });
  };
  return { market, read, balance, held, send, me, b: created(receipt).b, seed };
}

type Op = { buy: boolean; outcome: number; shares: bigint };
const opArb = (n: number) =>
  fc.record({
    buy: fc.boolean(),
    outcome: fc.integer({ min: 0, max: n - 1 }),
    // from one base unit to 3,000 PM of shares, weighted across magnitudes
    shares: fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1_000n, max: 10_000_000n }), fc.bigInt({ min: 10_000_000n, max: 3_000_000_000n })),
  });

async function runAgainstChain(m: Awaited<ReturnType<typeof createMarket>>, n: number, sellFee: number, ops: Op[]) {
  let state: LmsrState = { b: m.b, q: [...(await m.read<readonly bigint[]>("outstanding"))] };
  let trades = 0;
  for (const op of ops) {
    const before = await m.balance(m.me);
    if (op.buy) {
      const quote = quoteBuyShares(state, op.outcome, op.shares);
      assert.equal(quote.cost, await m.read<bigint>("quoteBuy", [op.outcome, op.shares]), "quoteBuy");
      await m.send(m.market, lmsrMarketAbi, "buy", [op.outcome, op.shares, quote.cost, m.me]);
      assert.equal(before - (await m.balance(m.me)), quote.cost, "paid");
      state = applyTrade(state, op.outcome, op.shares);
      assert.equal(quote.priceAfter, (await m.read<readonly bigint[]>("prices"))[op.outcome]);
    } else {
      const held = await m.held(op.outcome);
      const shares = op.shares > held ? held : op.shares;
      if (shares === 0n) continue;
      const quote = quoteSell(state, op.outcome, shares, sellFee);
      const [p, f] = await m.read<readonly [bigint, bigint]>("quoteSell", [op.outcome, shares]);
      assert.deepEqual([quote.proceeds, quote.fee], [p, f], "quoteSell");
      const treasuryBefore = await m.balance(DEV_TREASURY_ADDRESS);
      await m.send(m.market, lmsrMarketAbi, "sell", [op.outcome, shares, quote.proceeds, m.me]);
      assert.equal((await m.balance(m.me)) - before, quote.proceeds, "received");
      assert.equal((await m.balance(DEV_TREASURY_ADDRESS)) - treasuryBefore, quote.fee, "fee to treasury");
      state = applyTrade(state, op.outcome, -shares);
    }
    trades++;
    assert.deepEqual(state.q, [...(await m.read<readonly bigint[]>("outstanding"))], "outstanding");
    assert.deepEqual(prices(state), [...(await m.read<readonly bigint[]>("prices"))], "prices");
  }
  // budget search: the contract accepts the shares found and refuses one more base unit
  for (let o = 0; o < n; o++) {
    const budget = 123_456_789n;
    const { shares, quote } = quoteBuyForCost(state, o, budget);
    assert.ok(shares > 0n && quote);
    assert.ok((await m.read<bigint>("quoteBuy", [o, shares])) <= budget);
    assert.ok((await m.read<bigint>("quoteBuy", [o, shares + 1n])) > budget);
  }
  return trades;
}

describe("LMSR pricing against LmsrMarket on a Hardhat chain", () => {
  for (const [name, n, seed, sellFee, winFee] of [
    ["BinaryFactory", 2, 1_000_000_000n, 200, 100],
    ["TernaryFactory", 3, 777_777_777n, 1_000, 0],
  ] as const) {
    it(`${name}: b, quotes, executed amounts, fees and prices match to the base unit`, async () => {
      const m = await createMarket(name, seed, sellFee, winFee);
      assert.equal(bFromSeed(seed, n), m.b);
      assert.equal(bFromSeed(seed, n), await m.read<bigint>("b"));
      assert.deepEqual(prices({ b: m.b, q: Array(n).fill(0n) }), [...(await m.read<readonly bigint[]>("prices"))]);
      let trades = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(opArb(n), { minLength: 6, maxLength: 10 }), async (ops) => {
          trades += await runAgainstChain(m, n, sellFee, ops);
        }),
        { numRuns: 4, endOnFailure: true },
      );
      assert.ok(trades >= 10, `only ${trades} trades ran`);
    });
  }
});
