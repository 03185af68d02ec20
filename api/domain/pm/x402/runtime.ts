/**
 * Where the service takes USDC over x402: the chain's USDC (deployments/<chainId>.json, collateral `USDC`), the
 * treasury as payee, the token's EIP-712 domain (read once from the token: `eip712Domain()`), and the facilitator
 * (LocalFacilitator signing with DEPLOYER_PRIVATE_KEY, a key the batcher and the trade relay never send from, so
 * settlement nonces never race theirs). `Services.x402` opens it on first use (the deployment may be written after the
 * service started); SERVICE_UNAVAILABLE while no USDC is deployed or the chain does not answer.
 */
import { existsSync } from "node:fs";
import { createPublicClient, createWalletClient, getAddress, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ServiceContext } from "../../../context";
import { ApiError } from "../../../platform/errors/api-error";
import { readDeployment } from "../../protocol/deployment";
import { testUSDCAbi } from "../../../../generated/abis";
import { LocalFacilitator, type Facilitator } from "./facilitator";
import type { TokenDomain } from "./exact-evm";
import { rpcChain } from "../../../../relayer/rpc-chain";

export interface X402Runtime {
  chainId: number;
  asset: Address;
  payTo: Address;
  facilitator: Facilitator;
  /** The token's EIP-712 name and version (clients sign with them; `extra` of the requirements). */
  domain(): Promise<TokenDomain>;
}

/** The runtime of the chain's USDC; SERVICE_UNAVAILABLE (and nothing kept) while none is deployed. */
export function openX402Runtime(ctx: ServiceContext): X402Runtime {
  const { config } = ctx;
  const file = config.deploymentFile;
  const deployment = existsSync(file) ? readDeployment(file) : null;
  const usdc = deployment?.collaterals.find((c) => c.symbol === "USDC");
  if (!usdc) throw new ApiError("SERVICE_UNAVAILABLE", `no USDC is deployed on chain ${config.CHAIN_ID}: PM cannot be bought now`, {}, { "Retry-After": "30" });
  const chain = rpcChain(config.CHAIN_ID, config.rpcUrl);
  const transport = http(config.rpcUrl);
  const client = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(config.DEPLOYER_PRIVATE_KEY as Hex) });
  const asset = getAddress(usdc.token);
  let domain: Promise<TokenDomain> | null = null;
  const rt: X402Runtime = {
    chainId: config.CHAIN_ID,
    asset,
    payTo: getAddress(config.TREASURY_ADDRESS),
    facilitator: new LocalFacilitator({ client, wallet, fromBlock: BigInt((deployment?.contracts.TestUSDC ?? deployment?.contracts.USDC)?.blockNumber ?? 0) }),
    domain() {
      domain ??= client.readContract({ address: asset, abi: testUSDCAbi, functionName: "eip712Domain" }).then(([, name, version]) => ({ name, version }));
      return domain.catch((err) => {
        domain = null; // try again next time
        throw chainUnavailable(err);
      });
    },
  };
  return rt;
}

/** The chain did not answer: retry later, nothing was paid or credited. */
export function chainUnavailable(err: unknown): ApiError {
  return new ApiError("SERVICE_UNAVAILABLE", `the chain did not answer: ${(err as Error).message?.split("\n")[0]}`, {}, { "Retry-After": "5" }, { cause: err });
}
