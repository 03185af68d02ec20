import { expect } from "chai";
import hre from "hardhat";
import { keccak256, toHex, type Abi, type Address, type Hex } from "viem";
import { lmsrFactoryAbi, lmsrMarketAbi, orderbookFactoryAbi, outcomeTokenAbi } from "../../../generated/abis";
import { expectRevert } from "../../support/revert";

/** Shared fixtures of the market tests: a TestUSDC, the OutcomeToken, one LmsrFactory and one market on it. */

const abi = [...lmsrMarketAbi, ...lmsrFactoryAbi, ...outcomeTokenAbi, ...orderbookFactoryAbi] as unknown as Abi;
/** expectRevert over the ABIs of the market contracts (including OpenZeppelin's AccessControl errors). */
export const expectCustomError = (p: Promise<unknown>, name: string) => expectRevert(p, abi, name);

/**
 * Asserts that `p` reverts with exactly `errorWithValues`, e.g. "LmsrFactoryFeeTooHigh(7, 1001, 1000)": Hardhat's
 * network names the custom error with its decoded arguments in the message.
 */
export async function expectErrorValues(p: Promise<unknown>, errorWithValues: string): Promise<void> {
  try {
    await p;
  } catch (err) {
    expect(String((err as Error).message)).to.include(`reverted with custom error '${errorWithValues}'`);
    return;
  }
  expect.fail(`expected a revert with ${errorWithValues}`);
}

export const SEED = 1_000_000_000n; // 1,000 units of a 6-decimal token
export const BIG = 10n ** 15n;
/** The terms hash the fixture's market is created with (what the service would have negotiated). */
export const TERMS = keccak256(toHex("terms of the fixture's market"));

type Hash = Hex;
type Pc = { waitForTransactionReceipt(a: { hash: Hash }): Promise<{ gasUsed: bigint }> };

/** Prints one `{contract, entry, gas}` line (docs/contracts.md quotes them). */
export async function logGas(pc: Pc, contract: string, entry: string, hash: Hash) {
  console.log(JSON.stringify({ contract, entry, gas: Number((await pc.waitForTransactionReceipt({ hash })).gasUsed) }));
}

/**
 * A factory with `outcomeCount` outcomes and fee defaults `fees` (sell exit, winnings exit), USDC enabled, and one
 * market created by `creator` (seed SEED, closes in an hour). Accounts: admin (admin and resolver), creator, trader,
 * treasury, stranger, then `holders` more funded accounts.
 */
export async function marketFixture(outcomeCount: number, fees: { sell: number; win: number } = { sell: 200, win: 100 }) {
  const [admin, creator, trader, treasury, stranger, ...holders] = await hre.viem.getWalletClients();
  const pc = await hre.viem.getPublicClient();
  const usdc = await hre.viem.deployContract("TestUSDC", []);
  const outcome = await hre.viem.deployContract("OutcomeToken", [admin.account.address, "uri"]);
  const factory = await hre.viem.deployContract("LmsrFactory", [
    admin.account.address,
    outcome.address,
    outcomeCount,
    treasury.account.address,
    fees.sell,
    fees.win,
  ]);
  await outcome.write.setFactory([factory.address, true]);
  const setCollateralHash = await factory.write.setCollateral([usdc.address, true]);
  for (const w of [creator, trader, stranger, ...holders.slice(0, 6)]) {
    await usdc.write.mint([w.account.address, BIG]);
    const t = await hre.viem.getContractAt("TestUSDC", usdc.address, { client: { wallet: w } });
    await t.write.approve([factory.address, BIG]);
  }
  const now = BigInt((await pc.getBlock()).timestamp);
  const closeTime = now + 3600n;
  const asCreator = await hre.viem.getContractAt("LmsrFactory", factory.address, { client: { wallet: creator } });
  const hash = await asCreator.write.createMarket([usdc.address, SEED, closeTime, TERMS, "Will it rain?"]);
  const createGas = (await pc.waitForTransactionReceipt({ hash })).gasUsed;
  const [created] = await factory.getEvents.MarketCreated();
  const marketAddress = created.args.market as Address;
  /** The market as `w` (collateral approved to it). */
  const as = async (w: typeof trader) => {
    const t = await hre.viem.getContractAt("TestUSDC", usdc.address, { client: { wallet: w } });
    await t.write.approve([marketAddress, BIG]);
    return hre.viem.getContractAt("LmsrMarket", marketAddress, { client: { wallet: w } });
  };
  const market = await hre.viem.getContractAt("LmsrMarket", marketAddress);
  const testClient = await hre.viem.getTestClient();
  /** Moves the chain past closeTime. */
  const close = async () => {
    await testClient.increaseTime({ seconds: 3601 });
    await testClient.mine({ blocks: 1 });
  };
  const asResolver = await hre.viem.getContractAt("LmsrMarket", marketAddress, { client: { wallet: admin } });
  return {
    createGas,
    setCollateralHash,
    admin,
    creator,
    trader,
    treasury,
    stranger,
    holders: holders.slice(0, 6),
    pc,
    usdc,
    outcome,
    factory,
    market,
    created,
    closeTime,
    as,
    asResolver,
    close,
    testClient,
  };
}
