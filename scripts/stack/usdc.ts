/**
 * Which USDC the stack uses, and the developer wallets' USDC (docs/dev-chain.md "USDC on a developer's chain"):
 *   - a chain with a canonical USDC (Base 8453, Base Sepolia 84532) uses that address: the chain's own token when it
 *     has code there (a fork, a live chain), else, on a local chain only, a TestUSDC planted there;
 *   - a local chain without a canonical USDC gets a TestUSDC at an address of its own;
 *   - a live chain without USDC code at the canonical address is refused: the mintable TestUSDC never goes live.
 * On a local chain the Hardhat dev wallets are then funded with USDC by writing the token's balance slot.
 */
import { createPublicClient, http, type Address } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { ConfigError } from "../../api/config";
import { chainKind, type ChainKind } from "../../relayer/local-chain";
import type { UsdcPlan } from "../../relayer/deploy";
import { canonicalUsdc, findBalanceSlot, fundUsdc, hasCode } from "../../relayer/dev-usdc";

/** Hardhat's public test mnemonic: its accounts are the developer wallets of a local chain. */
const DEV_MNEMONIC = "test test test test test test test test test test test junk";
const DEV_WALLETS = 10;
/** 10,000 USDC each. */
export const DEV_WALLET_USDC = 10_000_000_000n;

export function devWallets(): Address[] {
  return Array.from({ length: DEV_WALLETS }, (_, i) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex: i }).address);
}

export async function usdcPlan(c: { rpcUrl: string; CHAIN_ID: number; RPC_URL?: string; FORK_URL?: string }): Promise<UsdcPlan> {
  const kind: ChainKind = chainKind(c);
  const canonical = canonicalUsdc(c.CHAIN_ID);
  const client = createPublicClient({ transport: http(c.rpcUrl) });
  if (canonical && (await hasCode(client, canonical))) return { kind: "existing", at: canonical };
  if (kind === "remote") {
    throw new ConfigError(
      "RPC_URL",
      `names a live chain (${c.CHAIN_ID}) with no USDC at ${canonical ?? "a known canonical address"}: the mintable TestUSDC is refused off a local chain`,
    );
  }
  return canonical ? { kind: "plant", at: canonical } : { kind: "deploy" };
}

/** Adds DEV_WALLET_USDC to each developer wallet; returns the wallets. */
export async function fundDevWallets(rpcUrl: string, token: Address): Promise<Address[]> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const wallets = devWallets();
  await fundUsdc(client, token, wallets, DEV_WALLET_USDC, await findBalanceSlot(client, token));
  return wallets;
}
