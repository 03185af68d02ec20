import { expect } from "chai";
import hre from "hardhat";
import { encodeFunctionData, zeroHash, type Abi, type Address, type Hex } from "viem";
import { intentRouterAbi } from "../../../generated/abis";
import { expectRevert } from "../../support/revert";

const BIG = 10n ** 15n;
const abi = intentRouterAbi as unknown as Abi;
const expectCustomError = (p: Promise<unknown>, name: string) => expectRevert(p, abi, name);

const types = {
  TradeIntent: [
    { name: "trader", type: "address" },
    { name: "market", type: "address" },
    { name: "outcome", type: "uint8" },
    { name: "isBuy", type: "bool" },
    { name: "amount", type: "uint256" },
    { name: "limit", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "nonce", type: "uint256" },
  ],
  BasketIntent: [
    { name: "trader", type: "address" },
    { name: "legs", type: "Leg[]" },
    { name: "deadline", type: "uint256" },
    { name: "nonce", type: "uint256" },
  ],
  Leg: [
    { name: "market", type: "address" },
    { name: "outcome", type: "uint8" },
    { name: "isBuy", type: "bool" },
    { name: "amount", type: "uint256" },
    { name: "limit", type: "uint256" },
  ],
} as const;

async function fixture() {
  const [admin, trader, relayer, treasury] = await hre.viem.getWalletClients();
  const pc = await hre.viem.getPublicClient();
  const usdc = await hre.viem.deployContract("TestUSDC", []);
  const outcome = await hre.viem.deployContract("OutcomeToken", [admin.account.address, "uri"]);
  const factory = await hre.viem.deployContract("LmsrFactory", [admin.account.address, outcome.address, 2, treasury.account.address, 0, 0]);
  await outcome.write.setFactory([factory.address, true]);
  await factory.write.setCollateral([usdc.address, true]);
  await usdc.write.mint([admin.account.address, BIG]);
  await usdc.write.approve([factory.address, BIG]);
  const closeTime = BigInt((await pc.getBlock()).timestamp) + 3600n;
  await factory.write.createMarket([usdc.address, 1_000_000_000n, closeTime, zeroHash, "q"]);
  const [created] = await factory.getEvents.MarketCreated();
  const market = await hre.viem.getContractAt("LmsrMarket", created.args.market as Address);
  const impl = await hre.viem.deployContract("IntentRouter", []);
  const init = encodeFunctionData({ abi: impl.abi, functionName: "initialize", args: [admin.account.address, usdc.address] });
  const proxy = await hre.viem.deployContract("ERC1967Proxy", [impl.address, init]);
  const router = await hre.viem.getContractAt("IntentRouter", proxy.address, { client: { wallet: relayer } });
  await usdc.write.mint([trader.account.address, BIG]);
  const asTrader = await hre.viem.getContractAt("TestUSDC", usdc.address, { client: { wallet: trader } });
  await asTrader.write.approve([proxy.address, BIG]);
  const outcomeAsTrader = await hre.viem.getContractAt("OutcomeToken", outcome.address, { client: { wallet: trader } });
  await outcomeAsTrader.write.setApprovalForAll([proxy.address, true]);
  const domain = { name: "IntentRouter", version: "1", chainId: await pc.getChainId(), verifyingContract: proxy.address };
  const deadline = closeTime;
  return { admin, trader, relayer, pc, usdc, outcome, market, router, impl, domain, deadline, proxy };
}

type F = Awaited<ReturnType<typeof fixture>>;
function intent(f: F, over: Partial<{ isBuy: boolean; amount: bigint; limit: bigint; deadline: bigint; nonce: bigint }> = {}) {
  return {
    trader: f.trader.account.address,
    market: f.market.address,
    outcome: 0,
    isBuy: true,
    amount: 100_000_000n,
    limit: BIG,
    deadline: f.deadline,
    nonce: 1n,
    ...over,
  };
}
const sign = (f: F, message: ReturnType<typeof intent>) => f.trader.signTypedData({ domain: f.domain, types, primaryType: "TradeIntent", message });
type Leg = { market: Address; outcome: number; isBuy: boolean; amount: bigint; limit: bigint };
function basketOf(f: F, legs: Leg[], over: Partial<{ deadline: bigint; nonce: bigint }> = {}) {
  return { trader: f.trader.account.address, legs, deadline: f.deadline, nonce: 9n, ...over };
}
const signBasket = (f: F, message: ReturnType<typeof basketOf>) => f.trader.signTypedData({ domain: f.domain, types, primaryType: "BasketIntent", message });
async function logGas(f: F, entry: string, hash: Hex) {
  console.log(JSON.stringify({ contract: "IntentRouter", entry, gas: Number((await f.pc.waitForTransactionReceipt({ hash })).gasUsed) }));
}

describe("IntentRouter (behind ERC1967Proxy)", () => {
  it("executes a signed buy and sell submitted by anyone and emits IntentExecuted with the digest", async () => {
    const f = await fixture();
    const buy = intent(f);
    const buyHash = await f.router.write.executeTradeIntent([buy, await sign(f, buy)]);
    expect(await f.outcome.read.balanceOf([f.trader.account.address, 256n])).to.equal(100_000_000n);
    const [ev] = await f.router.getEvents.IntentExecuted();
    expect(ev.args.digest).to.equal(await f.router.read.tradeDigest([buy]));
    expect(ev.args.trader?.toLowerCase()).to.equal(f.trader.account.address.toLowerCase());
    const before = await f.usdc.read.balanceOf([f.trader.account.address]);
    const sell = intent(f, { isBuy: false, amount: 40_000_000n, limit: 1n, nonce: 2n });
    const sellHash = await f.router.write.executeTradeIntent([sell, await sign(f, sell)]);
    expect(await f.outcome.read.balanceOf([f.trader.account.address, 256n])).to.equal(60_000_000n);
    for (const [entry, hash] of [
      ["executeTradeIntent(buy)", buyHash],
      ["executeTradeIntent(sell)", sellHash],
    ] as const) {
      console.log(JSON.stringify({ contract: "IntentRouter", entry, gas: Number((await f.pc.waitForTransactionReceipt({ hash })).gasUsed) }));
    }
    expect((await f.usdc.read.balanceOf([f.trader.account.address])) > before).to.equal(true);
  });

  it("refuses replayed, expired, over-limit and forged intents", async () => {
    const f = await fixture();
    const buy = intent(f);
    const sig = await sign(f, buy);
    await f.router.write.executeTradeIntent([buy, sig]);
    await expectCustomError(f.router.write.executeTradeIntent([buy, sig]), "RouterNonceUsed");
    const expired = intent(f, { deadline: 1n, nonce: 3n });
    await expectCustomError(f.router.write.executeTradeIntent([expired, await sign(f, expired)]), "RouterExpired");
    const tight = intent(f, { limit: 1n, nonce: 4n });
    await expectCustomError(f.router.write.executeTradeIntent([tight, await sign(f, tight)]), "RouterLimitExceeded");
    const forged = intent(f, { nonce: 5n });
    const other = (await f.relayer.signTypedData({ domain: f.domain, types, primaryType: "TradeIntent", message: forged })) as Hex;
    await expectCustomError(f.router.write.executeTradeIntent([forged, other]), "RouterInvalidSignature");
    await expectCustomError(f.router.write.upgradeToAndCall([f.impl.address, "0x"]), "RouterUnauthorized");
  });

  it("refuses a sell whose net proceeds are below the limit, and consumes nothing", async () => {
    const f = await fixture();
    const buy = intent(f);
    await f.router.write.executeTradeIntent([buy, await sign(f, buy)]);
    const [proceeds] = await f.market.read.quoteSell([0, 40_000_000n]);
    const greedy = intent(f, { isBuy: false, amount: 40_000_000n, limit: proceeds + 1n, nonce: 2n });
    await expectCustomError(f.router.write.executeTradeIntent([greedy, await sign(f, greedy)]), "RouterLimitExceeded");
    expect(await f.outcome.read.balanceOf([f.trader.account.address, 256n])).to.equal(100_000_000n);
    expect(await f.router.read.nonceUsed([f.trader.account.address, 2n])).to.equal(false);
    const exact = { ...greedy, limit: proceeds };
    await f.router.write.executeTradeIntent([exact, await sign(f, exact)]);
    expect(await f.outcome.read.balanceOf([f.trader.account.address, 256n])).to.equal(60_000_000n);
  });

  it("refuses a market of another collateral", async () => {
    const f = await fixture();
    const other = await hre.viem.deployContract("TestUSDC", []);
    const init = encodeFunctionData({ abi: f.impl.abi, functionName: "initialize", args: [f.admin.account.address, other.address] });
    const proxy = await hre.viem.deployContract("ERC1967Proxy", [f.impl.address, init]);
    const otherRouter = await hre.viem.getContractAt("IntentRouter", proxy.address, { client: { wallet: f.relayer } });
    const buy = intent(f);
    const sig = await f.trader.signTypedData({ domain: { ...f.domain, verifyingContract: proxy.address }, types, primaryType: "TradeIntent", message: buy });
    await expectCustomError(otherRouter.write.executeTradeIntent([buy, sig]), "RouterWrongCollateral");
    expect(await f.outcome.read.balanceOf([f.trader.account.address, 256n])).to.equal(0n);
  });

  it("lets only the admin upgrade the implementation", async () => {
    const f = await fixture();
    const next = await hre.viem.deployContract("IntentRouter", []);
    const asAdmin = await hre.viem.getContractAt("IntentRouter", f.proxy.address, { client: { wallet: f.admin } });
    const hash = await asAdmin.write.upgradeToAndCall([next.address, "0x"]);
    await logGas(f, "upgradeToAndCall(admin)", hash);
    // ERC-1967 implementation slot: keccak256("eip1967.proxy.implementation") - 1.
    const slot = await f.pc.getStorageAt({ address: f.proxy.address, slot: "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc" });
    expect(BigInt(slot!)).to.equal(BigInt(next.address));
  });

  it("executes a basket atomically under one signature", async () => {
    const f = await fixture();
    const legs = [
      { market: f.market.address, outcome: 0, isBuy: true, amount: 10_000_000n, limit: BIG },
      { market: f.market.address, outcome: 1, isBuy: true, amount: 20_000_000n, limit: BIG },
    ];
    const basket = basketOf(f, legs);
    const sig = await signBasket(f, basket);
    const hash = await f.router.write.executeBasketIntent([basket, sig]);
    await logGas(f, "executeBasketIntent(2 buys)", hash);
    expect(await f.outcome.read.balanceOf([f.trader.account.address, 257n])).to.equal(20_000_000n);
    expect((await f.router.getEvents.IntentExecuted()).length).to.equal(2);
    await expectCustomError(f.router.write.executeBasketIntent([basket, sig]), "RouterNonceUsed");
  });

  it("refuses expired, over-limit and empty baskets, and an over-limit leg undoes the legs before it", async () => {
    const f = await fixture();
    const leg0 = { market: f.market.address, outcome: 0, isBuy: true, amount: 10_000_000n, limit: BIG };
    const expired = basketOf(f, [leg0], { deadline: 1n, nonce: 1n });
    await expectCustomError(f.router.write.executeBasketIntent([expired, await signBasket(f, expired)]), "RouterExpired");
    const tightLeg = { market: f.market.address, outcome: 1, isBuy: true, amount: 20_000_000n, limit: 1n };
    const overLimit = basketOf(f, [leg0, tightLeg], { nonce: 2n });
    await expectCustomError(f.router.write.executeBasketIntent([overLimit, await signBasket(f, overLimit)]), "RouterLimitExceeded");
    const empty = basketOf(f, [], { nonce: 3n });
    await expectCustomError(f.router.write.executeBasketIntent([empty, await signBasket(f, empty)]), "RouterEmptyBasket");
    expect(await f.outcome.read.balanceOf([f.trader.account.address, 256n])).to.equal(0n);
    for (const nonce of [1n, 2n, 3n]) expect(await f.router.read.nonceUsed([f.trader.account.address, nonce])).to.equal(false);
  });
});
