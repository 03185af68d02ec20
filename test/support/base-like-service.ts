/**
 * A service on a Base-like chain for the x402 tests: a Hardhat node with chain id 8453, the full deployment with the
 * test USDC planted at Base's canonical address (so @x402/evm's defaults pay it), in a deployments folder of its own
 * (the developer's deployments/8453.json stays untouched), and a test service whose manual clock starts at now (the
 * authorization window is checked against the service clock and the chain's block time).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { manualClock } from "../../relayer/clock";
import { deployAll } from "../../relayer/deploy";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY, DEV_TREASURY_ADDRESS } from "../../relayer/dev-accounts";
import { CANONICAL_USDC } from "../../relayer/dev-usdc";
import { freePort } from "./ports";
import { startTestService, stopTestService, type TestService } from "./service";
import { startLocalChain } from "../../scripts/stack/chain";
import { stopChild } from "../../scripts/stack/children";

export const BASE_USDC = CANONICAL_USDC[8453]!;

export interface BaseLikeService {
  t: TestService;
  client: ReturnType<typeof createPublicClient>;
  stop: () => Promise<void>;
}

/** `env` adds to (or overrides) the service's configuration. */
export async function startBaseLikeService(env: Record<string, string> = {}): Promise<BaseLikeService> {
  const dir = mkdtempSync(join(tmpdir(), "pm-base-like-"));
  const port = await freePort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const chain = await startLocalChain({ port, chainId: 8453 });
  let t: TestService | undefined;
  const stop = async () => {
    if (t) await stopTestService(t);
    await stopChild(chain);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const deployments = join(dir, "deployments");
    await deployAll({
      rpcUrl,
      deployerKey: DEV_DEPLOYER_KEY as Hex,
      operatorAddress: privateKeyToAccount(DEV_OPERATOR_KEY as Hex).address,
      treasuryAddress: DEV_TREASURY_ADDRESS,
      outDir: deployments,
      usdc: { kind: "plant", at: BASE_USDC },
    });
    t = await startTestService(
      { CHAIN_ID: "8453", RPC_URL: rpcUrl, DEPLOYMENTS_DIR: deployments, INDEXER_ENABLED: "false", SEED_DEMO_MARKETS: "false", ...env },
      { clock: manualClock(Date.now()) },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { t, client: createPublicClient({ transport: http(rpcUrl) }), stop };
}
