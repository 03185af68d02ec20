/**
 * Test and bench helper: a real Hardhat node with the full deployment, a real Ponder process (PGlite) on it, and the
 * API service reading the projection over Ponder's HTTP routes. Each stack uses its own chain id, so its
 * deployments/<chainId>.json never touches the development one; the file is removed on stop.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, createWalletClient, http, parseEther, zeroHash, type Address, type Chain, type Hex } from "viem";
import { privateKeyToAccount, type LocalAccount } from "viem/accounts";
import { loadConfig } from "../../../api/config";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY, DEV_TREASURY_ADDRESS } from "../../../relayer/dev-accounts";
import { deploymentFile, type Deployment } from "../../../decoder/deployment";
import { startService, type RunningService } from "../../../api/service";
import { lmsrFactoryAbi, testUSDCAbi } from "../../../generated/abis";
import { deployAll } from "../../../relayer/deploy";
import { startLocalChain } from "../../../scripts/stack/chain";
import { startChild, stopChild, type Child } from "../../../scripts/stack/children";
import { freePort } from "../ports";
import { rpcChain } from "../../../relayer/rpc-chain";

const ROOT = join(__dirname, "..", "..", "..");
export const TREASURY = DEV_TREASURY_ADDRESS.toLowerCase() as Address;

export interface OnchainStack {
  chainId: number;
  rpcUrl: string;
  ponderUrl: string;
  deployment: Deployment;
  svc: RunningService;
  client: ReturnType<typeof createPublicClient>;
  deployer: ReturnType<typeof createWalletClient>;
  chain: Chain;
  /** Creates a binary USDC market through the factory (deployer seeds it); returns its address. */
  createMarket(seed?: bigint, question?: string): Promise<Address>;
  /** A wallet client for `key`, funded with ETH and `usdc` TestUSDC. */
  fundedWallet(key: Hex, usdc: bigint): Promise<ReturnType<typeof createWalletClient>>;
  /** GET on Ponder's HTTP server, JSON. */
  ponderFetch(path: string): Promise<any>;
  stop(): Promise<void>;
}

/** With DATABASE_URL set (or `databaseUrl`), Ponder and the API use Postgres and the API reads the views schema. */
/** The `ponder start` command line and environment of a test stack's indexer (Ponder on PGlite in `dir`, or on Postgres). */
export function ponderCommand(o: {
  ponderPort: number;
  chainId: number;
  rpcUrl: string;
  dir: string;
  databaseUrl: string | undefined;
  pollingMs: number;
  logLevel?: string;
}): { args: string[]; env: NodeJS.ProcessEnv } {
  const bin = join(ROOT, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(o.ponderPort),
    CHAIN_ID: String(o.chainId),
    RPC_URL: o.rpcUrl,
    DEPLOYMENT_FILE: deploymentFile(o.chainId),
    PONDER_PGLITE_DIR: join(o.dir, "ponder"),
    PONDER_POLLING_MS: String(o.pollingMs),
    PONDER_TELEMETRY_DISABLED: "true",
    PONDER_LOG_LEVEL: o.logLevel ?? "warn",
  };
  const args = [bin, "start", "--root", join(ROOT, "indexer"), "--schema", `t_${o.chainId}`, "--port", String(o.ponderPort), "--hostname", "127.0.0.1"];
  if (o.databaseUrl) {
    env.DATABASE_URL = o.databaseUrl;
    args.push("--views-schema", `indexer_${o.chainId}`);
  } else delete env.DATABASE_URL;
  return { args, env };
}

/**
 * What a stack of this kind leaves behind once its processes stopped: on Postgres, Ponder's instance schema and its
 * views schema and the API's test schema of `chainId`; the deployment file of `chainId`; and its directory.
 */
export async function removeStackState(databaseUrl: string | undefined, chainId: number, dir: string): Promise<void> {
  if (databaseUrl) {
    const sql = (await import("postgres")).default(databaseUrl, { max: 1, onnotice: () => {} });
    for (const schema of [`t_${chainId}`, `indexer_${chainId}`, `t_api_${chainId}`])
      await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await sql.end();
  }
  rmSync(deploymentFile(chainId), { force: true });
  rmSync(dir, { recursive: true, force: true });
}

export async function startOnchainStack(opts: { pollingMs?: number; quiet?: boolean; databaseUrl?: string } = {}): Promise<OnchainStack> {
  const databaseUrl = opts.databaseUrl ?? process.env.DATABASE_URL;
  const chainId = 910_000 + Math.floor(Math.random() * 80_000);
  const [chainPort, ponderPort] = [await freePort(), await freePort()];
  const rpcUrl = `http://127.0.0.1:${chainPort}`;
  const children: Child[] = [];
  const dir = mkdtempSync(join(tmpdir(), "onchain-stack-"));
  let svc: RunningService | undefined;
  const stop = async () => {
    await svc?.close();
    for (const c of children.reverse()) await stopChild(c);
    await removeStackState(databaseUrl, chainId, dir);
  };
  try {
    children.push(await startLocalChain({ port: chainPort, chainId }));
    const operator = privateKeyToAccount(DEV_OPERATOR_KEY as Hex).address;
    const deployment = await deployAll({ rpcUrl, deployerKey: DEV_DEPLOYER_KEY as Hex, operatorAddress: operator, treasuryAddress: TREASURY });
    const chain = rpcChain(chainId, rpcUrl);
    const client = createPublicClient({ chain, transport: http(rpcUrl) });
    const deployer = createWalletClient({ chain, transport: http(rpcUrl), account: privateKeyToAccount(DEV_DEPLOYER_KEY as Hex) });

    const { args, env } = ponderCommand({ ponderPort, chainId, rpcUrl, dir, databaseUrl, pollingMs: opts.pollingMs ?? 100 });
    const ponder = startChild("indexer", process.execPath, args, {
      cwd: ROOT,
      env,
      quiet: opts.quiet ?? true,
    });
    children.push(ponder);
    const ponderUrl = `http://127.0.0.1:${ponderPort}`;
    const until = Date.now() + 120_000;
    for (;;) {
      const ok = await fetch(`${ponderUrl}/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > until) throw new Error("ponder did not become ready");
      await new Promise((r) => setTimeout(r, 250));
    }
    svc = await startService(
      loadConfig({
        PORT: "0",
        DATA_DIR: join(dir, "api"),
        LOG_LEVEL: "silent",
        CHAIN_ID: String(chainId),
        RPC_URL: rpcUrl,
        PONDER_PORT: String(ponderPort),
        DATABASE_URL: databaseUrl,
        DATABASE_SCHEMA: databaseUrl ? `t_api_${chainId}` : undefined,
      }),
      { redisPrefix: `t-onchain-${chainId}:` },
    );
    const usdc = deployment.contracts.TestUSDC!.address;
    const factory = deployment.contracts.BinaryFactory!.address;
    const send = async (hash: Hex) => {
      const r = await client.waitForTransactionReceipt({ hash });
      if (r.status !== "success") throw new Error(`tx ${hash} reverted`);
      return r;
    };
    return {
      chainId,
      rpcUrl,
      ponderUrl,
      deployment,
      svc,
      client,
      deployer,
      chain,
      async createMarket(seed = 1_000_000_000n, question = "Will the test pass?") {
        await send(
          await deployer.writeContract({
            chain,
            account: deployer.account!,
            address: usdc,
            abi: testUSDCAbi,
            functionName: "mint",
            args: [deployer.account!.address, seed],
          }),
        );
        await send(
          await deployer.writeContract({ chain, account: deployer.account!, address: usdc, abi: testUSDCAbi, functionName: "approve", args: [factory, seed] }),
        );
        const block = await client.getBlock();
        const { result, request } = await client.simulateContract({
          account: deployer.account!,
          address: factory,
          abi: lmsrFactoryAbi,
          functionName: "createMarket",
          // The factory stamps its fee defaults; no negotiated terms in tests (zero terms hash).
          args: [usdc, seed, block.timestamp + 30n * 86_400n, zeroHash, question],
        });
        await send(await deployer.writeContract(request));
        return result[0];
      },
      async fundedWallet(key, amount) {
        const account = privateKeyToAccount(key);
        await send(await deployer.sendTransaction({ chain, account: deployer.account!, to: account.address, value: parseEther("1") }));
        await send(
          await deployer.writeContract({
            chain,
            account: deployer.account!,
            address: usdc,
            abi: testUSDCAbi,
            functionName: "mint",
            args: [account.address, amount],
          }),
        );
        return createWalletClient({ chain, transport: http(rpcUrl), account });
      },
      ponderFetch: (path) => fetch(`${ponderUrl}${path}`).then((r) => r.json()),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Polls `fn` until it returns a value other than undefined (or times out). */
export async function eventually<T>(fn: () => Promise<T | undefined>, timeoutMs = 20_000, stepMs = 25): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** The typedData of a `POST /trade/prepare` answer, as JSON carries it (the message's integers as decimal strings). */
export interface PreparedTypedData {
  domain: Record<string, unknown>;
  types: Record<string, { name: string; type: string }[]>;
  message: { amount: string; limit: string; deadline: string; nonce: string; [field: string]: unknown };
}

/** The trader's signature over a prepared intent, made the way an agent with viem makes it. */
export function signPreparedIntent(trader: LocalAccount, td: PreparedTypedData): Promise<Hex> {
  const m = td.message;
  return trader.signTypedData({
    domain: td.domain,
    types: td.types,
    primaryType: "TradeIntent",
    message: { ...m, amount: BigInt(m.amount), limit: BigInt(m.limit), deadline: BigInt(m.deadline), nonce: BigInt(m.nonce) },
  });
}
