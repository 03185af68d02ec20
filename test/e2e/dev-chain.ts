/**
 * What the developer's-chain e2e tests share (docs/dev-chain.md): Hardhat's dev wallets (funded with USDC by
 * `npm start`), registration on the wallet path, buying PM with the ecosystem's default x402 client (`@x402/fetch` +
 * `@x402/evm`, default spend controls), trading a crossed pair on an ORDERBOOK market, and `npx decode` of a batch.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { createPublicClient, http, parseAbi, type Address } from "viem";
import { mnemonicToAccount, type HDAccount, type LocalAccount } from "viem/accounts";
import { call, freshNonce, registerProof, show, type Json } from "./client";
import { until } from "./receivers";
import type { E2eStack } from "./stack";

const ROOT = join(__dirname, "..", "..");
export const BASE_USDC: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
/** What `npm start` gives each dev wallet on a local chain (scripts/stack/usdc.ts). */
export const DEV_WALLET_USDC = 10_000_000_000n;

/** Hardhat dev wallet #i (the public test mnemonic). */
export function devWallet(i: number): HDAccount {
  return mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: i });
}

export function usdcBalance(rpcUrl: string, token: Address, holder: Address): Promise<bigint> {
  return createPublicClient({ transport: http(rpcUrl) }).readContract({
    address: token,
    abi: parseAbi(["function balanceOf(address) view returns (uint256)"]),
    functionName: "balanceOf",
    args: [holder],
  });
}

export interface DevAgent {
  key: string;
  ledgerAccount: string;
  wallet: LocalAccount;
}

/** Registers an agent on the wallet path (REGISTRATION_WALLET_OPEN=true) with `wallet`. */
export async function registerDevAgent(stack: E2eStack, name: string, wallet: LocalAccount): Promise<DevAgent> {
  const r = await call(stack.baseUrl, "POST", "/register", { name, ...(await registerProof(wallet as never, await freshNonce(stack.origin))) });
  if (r.status !== 201) throw new Error(show("POST", "/register", r));
  return { key: r.json.apiKey, ledgerAccount: r.json.ledgerAccount, wallet };
}

/** POST /pm/buy paid by `@x402/fetch` with its defaults: nothing configured but the signer. */
export async function buyPmWithDefaultClient(
  stack: E2eStack,
  agent: DevAgent,
  pm: number,
): Promise<{ status: number; json: Json; paymentResponse: string | null }> {
  const client = registerExactEvmScheme(new x402Client(), { signer: agent.wallet });
  const pay = wrapFetchWithPayment(fetch, client);
  const res = await pay(`${stack.baseUrl}/pm/buy`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${agent.key}`, "idempotency-key": randomUUID() },
    body: JSON.stringify({ pm }),
  });
  return { status: res.status, json: (await res.json()) as Json, paymentResponse: res.headers.get("payment-response") };
}

/** An open ORDERBOOK market of the seeded demo set. */
export async function openOrderbookMarket(stack: E2eStack): Promise<Json> {
  const r = await call(stack.baseUrl, "GET", "/discover/markets?pricingModel=ORDERBOOK");
  const market = (r.json.markets as Json[] | undefined)?.find((m) => m.state === "open");
  if (!market) throw new Error(show("GET", "/discover/markets?pricingModel=ORDERBOOK", r));
  return market;
}

/** `maker` rests a YES bid at 0.45 and `taker` crosses it with a NO buy at 0.55; returns the taker's fill. */
export async function crossOnce(stack: E2eStack, market: Json, maker: DevAgent, taker: DevAgent): Promise<Json> {
  const place = async (agent: DevAgent, order: Json) => {
    const r = await call(stack.baseUrl, "POST", "/orderbook/place-order", { market: market.address, size: "10000000", ...order }, { key: agent.key });
    if (r.status !== 200) throw new Error(show("POST", "/orderbook/place-order", r));
    return r.json.orders[0] as Json;
  };
  await place(maker, { outcome: 0, side: "buy", priceBps: "4500", timeInForce: "GTC" });
  const taken = await place(taker, { outcome: 1, side: "buy", priceBps: "5500", timeInForce: "IOC" });
  if (taken.status !== "filled") throw new Error(`the taker's order is ${taken.status}: ${JSON.stringify(taken)}`);
  return taken.fills[0] as Json;
}

/** The highest ledger batch nonce listed now (0 when none). */
export async function lastBatchNonce(stack: E2eStack): Promise<bigint> {
  const r = await call(stack.baseUrl, "GET", "/ledger/batches?limit=1");
  return r.json.batches?.length ? BigInt(r.json.batches[0].nonce) : 0n;
}

/** The first confirmed batch after `afterNonce`. */
export function confirmedBatchAfter(stack: E2eStack, afterNonce: bigint): Promise<Json> {
  return until(
    "a confirmed ledger batch",
    async () => {
      const r = await call(stack.baseUrl, "GET", "/ledger/batches?limit=50");
      return (r.json.batches as Json[]).find((b) => BigInt(b.nonce) > afterNonce && b.status === "confirmed");
    },
    () => [],
    120_000,
  );
}

/** `npm run admin -- <args>` against `stack` (its PORT and DATA_DIR), as docs/dev-chain.md runs it. */
export function adminCli(stack: E2eStack, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: new URL(stack.origin).port, DATA_DIR: stack.dataDir, CHAIN_ID: String(stack.chainId) };
  for (const k of ["NODE_TEST_CONTEXT", "RPC_URL", "FORK_URL", "PUBLIC_URL", "ADMIN_TOKEN", "DATABASE_URL"]) delete env[k];
  return new Promise((resolve) => {
    execFile("npm", ["run", "--silent", "admin", "--", ...args], { cwd: ROOT, env, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
