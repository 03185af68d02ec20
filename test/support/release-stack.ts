/**
 * What the participation-release tests start from (docs/participation-release.md): a Hardhat node on a chain id of
 * its own with `deployAll`'s contracts in a temporary deployments folder, the service on a manual clock started at the
 * chain's time, agents with their PM grant, one LMSR market to trade in, and the chain handles a test needs (the
 * deployer's wallet, which has gas, a block mined on demand, PM balances on chain).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, createTestClient, createWalletClient, getAddress, http, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { playMoneyAbi } from "../../generated/abis";
import { createLocalAgent, type LocalAgent } from "../../api/domain/auth/local-agents";
import { DAY_MS } from "../../api/domain/release/program";
import { manualClock } from "../../relayer/clock";
import { deployAll } from "../../relayer/deploy";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY, DEV_TREASURY_ADDRESS } from "../../relayer/dev-accounts";
import { rpcChain } from "../../relayer/rpc-chain";
import { startLocalChain } from "../../scripts/stack/chain";
import { stopChild } from "../../scripts/stack/children";
import { createLifecycleMarket } from "./lifecycle-market";
import { freePort } from "./ports";
import { apiClient, type CallResult, type Json, startTestService, stopTestService, type TestService } from "./service";

const PM = 1_000_000n;
export const RELEASE_ADMIN_TOKEN = "adm_release_test_token_0123456789abcd";

function deployerOf(chainId: number, rpcUrl: string) {
  return createWalletClient({ chain: rpcChain(chainId, rpcUrl), transport: http(rpcUrl), account: privateKeyToAccount(DEV_DEPLOYER_KEY) });
}

export interface ReleaseStack {
  chainId: number;
  rpcUrl: string;
  t: TestService;
  distributor: Address;
  pmToken: Address;
  agents: Record<string, LocalAgent>;
  call: Record<string, ReturnType<typeof apiClient>>;
  /** The answer's JSON when its status is `status`, else an assertion error with the answer. */
  ok(r: CallResult, status?: number): Json;
  /** A 5-share LMSR buy by `who`: a qualifying trade. */
  trade(who: string): Promise<Json>;
  /** The operator's admin API on the service. */
  admin(method: string, path: string): Promise<Response>;
  /** `root` makes an identity, each of `kids` joins it, and the operator verifies it. */
  linkAndVerify(root: string, kids: readonly string[]): Promise<void>;
  client(): ReturnType<typeof createPublicClient>;
  /** The deployer's wallet: it has gas, and pauses the distributor. */
  deployer(): ReturnType<typeof deployerOf>;
  mine(blocks?: number): Promise<void>;
  pmOnChain(who: string): Promise<bigint>;
  /** Stops the chain alone (the service stays up); `stop` still stops the rest. */
  stopChain(): Promise<void>;
  stop(): Promise<void>;
}

export async function startReleaseStack(names: readonly string[], env: Record<string, string> = {}): Promise<ReleaseStack> {
  // Its own chain id and deployments folder, so the development deployment is never touched.
  const chainId = 920_000 + Math.floor(Math.random() * 70_000);
  const deployments = mkdtempSync(join(tmpdir(), "pm-release-"));
  const port = await freePort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const chain = await startLocalChain({ port, chainId });
  const viemChain = rpcChain(chainId, rpcUrl);
  let t: TestService | undefined;
  const stop = async () => {
    if (t) await stopTestService(t);
    await stopChild(chain);
    rmSync(deployments, { recursive: true, force: true });
  };
  try {
    const record = await deployAll({
      rpcUrl,
      deployerKey: DEV_DEPLOYER_KEY,
      operatorAddress: privateKeyToAccount(DEV_OPERATOR_KEY).address,
      treasuryAddress: DEV_TREASURY_ADDRESS,
      outDir: deployments,
    });
    const client = () => createPublicClient({ chain: viemChain, transport: http(rpcUrl) });
    // The service's clock starts at the chain's time (the deployment's blocks may run ahead of the wall clock).
    const chainNow = Number((await client().getBlock()).timestamp) * 1000;
    const started = await startTestService(
      {
        CHAIN_ID: String(chainId),
        RPC_URL: rpcUrl,
        DEPLOYMENTS_DIR: deployments,
        INDEXER_ENABLED: "false",
        SEED_DEMO_MARKETS: "false",
        PM_STARTING_GRANT: (1_000n * PM).toString(),
        ADMIN_TOKEN: RELEASE_ADMIN_TOKEN,
        // The agents' wallets hold no gas: `auto` would push every claim. Tests of pushing say so.
        PARTICIPATION_DELIVERY: "self_claim",
        ...env,
      },
      { clock: manualClock(Math.max(chainNow, Date.now()) + 1_000) },
    );
    t = started;
    const ok = (r: CallResult, status = 200) => {
      if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.json)}`);
      return r.json;
    };
    const agents: Record<string, LocalAgent> = {};
    const call: Record<string, ReturnType<typeof apiClient>> = {};
    for (const name of [...names, "creator"]) {
      agents[name] = await createLocalAgent(started.svc.ctx.db, started.clock, { name: `release-${name}` });
      call[name] = apiClient(started, agents[name]!.apiKey);
      ok(await call[name]!("GET", "/orderbook/balances"));
    }
    const market = (
      await createLifecycleMarket(started.svc, {
        creator: agents.creator!.ledgerAccount as Address,
        closeTime: started.clock.now() + 60 * DAY_MS,
        seed: 500n * PM,
      })
    ).address;
    const admin = (method: string, path: string) =>
      fetch(`${new URL(started.svc.baseUrl).origin}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${RELEASE_ADMIN_TOKEN}` } });
    const pmToken = record.contracts.PlayMoney.address as Address;
    return {
      chainId,
      rpcUrl,
      t: started,
      distributor: record.contracts.ParticipationDistributor.address as Address,
      pmToken,
      agents,
      call,
      ok,
      trade: async (who) => ok(await call[who]!("POST", "/trade/prepare", { market, outcome: 0, side: "buy", shares: (5n * PM).toString() }), 201),
      admin,
      async linkAndVerify(root, kids) {
        const code = ok(await call[root]!("POST", "/identity/link-code", {}), 201).code;
        const consents = [];
        for (const kid of kids) consents.push(ok(await call[kid]!("POST", "/identity/link-consent", { code }), 201).consentId);
        if (consents.length) ok(await call[root]!("POST", "/identity/approve-links", { consentIds: consents }));
        const verified = await admin("PUT", `/identities/${agents[root]!.walletAddress}/verified`);
        if (verified.status !== 200) throw new Error(`verifying the identity answered ${verified.status}`);
      },
      client,
      deployer: () => deployerOf(chainId, rpcUrl),
      mine: async (blocks = 1) => createTestClient({ chain: viemChain, mode: "hardhat", transport: http(rpcUrl) }).mine({ blocks }),
      pmOnChain: (who) => client().readContract({ address: pmToken, abi: playMoneyAbi, functionName: "balanceOf", args: [getAddress(who)] }),
      stopChain: () => stopChild(chain),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
