/**
 * USDC on a developer's chain (docs/dev-chain.md):
 *   - the canonical USDC address of a chain id (Base, Base Sepolia), the one address x402 clients pay without
 *     configuration (`@x402/evm`'s default assets);
 *   - planting the test token there on a local node (`hardhat_setCode` with the code of a real TestUSDC deployment, so
 *     its immutables are set, and its storage copied slot by slot, as its constructor wrote it);
 *   - funding a wallet on a local node or a fork by writing its balance in the token's storage (`hardhat_setStorageAt`),
 *     the slot of the balance mapping found by probing `balanceOf`. This works for the planted test token and for a
 *     forked FiatToken alike; the total supply is left as it was (a developer's chain, not an audit).
 * Every write here needs a development node (Hardhat, Anvil): `assertDevNode` refuses anything else.
 */
import { encodeAbiParameters, getAddress, keccak256, numberToHex, pad, type Address, type Hex, type PublicClient } from "viem";
import { testUSDCAbi } from "../generated/abis";

/** Circle's USDC per chain id: where x402 clients expect it. */
export const CANONICAL_USDC: Readonly<Record<number, Address>> = {
  8453: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  84532: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
};

export function canonicalUsdc(chainId: number): Address | undefined {
  return CANONICAL_USDC[chainId];
}

/** The storage slots a TestUSDC constructor writes fit in the first few (ERC20 name and symbol, short strings). */
const PLANTED_SLOTS = 8;
/** How far the balance-slot probe looks (FiatToken's balances sit at slot 9, OpenZeppelin's at 0). */
const PROBED_SLOTS = 32;

/** A client that can send the dev nodes' methods (`hardhat_*`), which viem's typed `request` does not list. */
type RawClient = Pick<PublicClient, "request" | "readContract" | "getCode" | "getStorageAt">;
const raw = (client: RawClient, method: string, params: unknown[]) =>
  (client.request as (a: { method: string; params: unknown[] }) => Promise<unknown>)({ method, params });

/** Throws unless the node is a development node that takes `hardhat_setCode` and `hardhat_setStorageAt`. */
export async function assertDevNode(client: RawClient, what: string): Promise<void> {
  const version = String(await raw(client, "web3_clientVersion", []).catch(() => ""));
  if (!/hardhat|anvil|edr/i.test(version)) {
    throw new Error(`${what} needs a local development chain (Hardhat or Anvil); this node is "${version || "unknown"}": it is refused off a local chain`);
  }
}

/** Whether `address` has code. */
export async function hasCode(client: RawClient, address: Address): Promise<boolean> {
  const code = await client.getCode({ address });
  return code !== undefined && code !== "0x";
}

/** Gives `at` the code and the constructor's storage of the TestUSDC deployed at `from`. */
export async function plantTestUsdc(client: RawClient, from: Address, at: Address): Promise<void> {
  await assertDevNode(client, "planting the mintable TestUSDC");
  const code = await client.getCode({ address: from });
  if (!code || code === "0x") throw new Error(`no TestUSDC code at ${from} to plant at ${at}`);
  await raw(client, "hardhat_setCode", [at, code]);
  for (let slot = 0; slot < PLANTED_SLOTS; slot++) {
    const key = numberToHex(slot, { size: 32 });
    const value = (await client.getStorageAt({ address: from, slot: key })) ?? pad("0x0");
    await raw(client, "hardhat_setStorageAt", [at, key, pad(value)]);
  }
}

/** The storage key of `holder` in a Solidity `mapping(address => …)` at `slot`. */
const mappingKey = (holder: Address, slot: number): Hex => keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [holder, BigInt(slot)]));

const balanceOf = (client: RawClient, token: Address, holder: Address) =>
  client.readContract({ address: token, abi: testUSDCAbi, functionName: "balanceOf", args: [holder] });

/** The slot of `token`'s balance mapping: the one whose entry for a probe address moves `balanceOf`. */
export async function findBalanceSlot(client: RawClient, token: Address): Promise<number> {
  const probe = getAddress("0x00000000000000000000000000000000000d3c41");
  const marker = 0x1234_5678_9abcn;
  for (let slot = 0; slot < PROBED_SLOTS; slot++) {
    const key = mappingKey(probe, slot);
    const before = (await client.getStorageAt({ address: token, slot: key })) ?? pad("0x0");
    await raw(client, "hardhat_setStorageAt", [token, key, numberToHex(marker, { size: 32 })]);
    const seen = await balanceOf(client, token, probe).catch(() => -1n);
    await raw(client, "hardhat_setStorageAt", [token, key, pad(before)]);
    if (seen === marker) return slot;
  }
  throw new Error(`no balance mapping of ${token} in its first ${PROBED_SLOTS} storage slots: fund the wallets another way`);
}

/**
 * Adds `amount` to each holder's balance by writing the token's storage; returns the new balances. `slot` may be
 * passed when already known (one probe for many wallets).
 */
export async function fundUsdc(client: RawClient, token: Address, holders: readonly Address[], amount: bigint, slot?: number): Promise<bigint[]> {
  await assertDevNode(client, "funding wallets with USDC");
  const at = slot ?? (await findBalanceSlot(client, token));
  const out: bigint[] = [];
  for (const holder of holders) {
    const next = (await balanceOf(client, token, holder)) + amount;
    await raw(client, "hardhat_setStorageAt", [token, mappingKey(getAddress(holder), at), numberToHex(next, { size: 32 })]);
    out.push(await balanceOf(client, token, holder));
  }
  return out;
}
