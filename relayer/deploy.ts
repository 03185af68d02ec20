/**
 * Deploys the service's contracts to a running chain with viem (no Hardhat runtime, so it works against any node)
 * and writes the deployment artifact (decoder/deployment.ts): addresses, deployment blocks (number and hash),
 * transaction hashes and runtime code hashes, which `npm start`, the API (`/discover/contracts`,
 * `/discover/token-release`), the batcher, the decoder and the indexer read. `scripts/deploy.ts` is its CLI.
 *
 * Deterministic: the same deployer on a fresh chain gets the same addresses, so a restarted local chain lines up
 * with a resumed data directory.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  keccak256,
  toFunctionSelector,
  toFunctionSignature,
  type Abi,
  type AbiFunction,
  type Address,
  type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { writeDeployment, type DeployedContract, type Deployment } from "../decoder/deployment";
import { rpcChain } from "./rpc-chain";
import { FEE_DEFAULTS, FEE_POLICY_VERSIONS } from "./pricing/fees";
import { assertDevNode, plantTestUsdc } from "./dev-usdc";
import { COMMUNITY_POOL_WEI, participationReleaseId } from "./participation-release";

const ROOT = join(__dirname, "..");

export interface DeployOptions {
  rpcUrl: string;
  deployerKey: Hex;
  operatorAddress: Address;
  treasuryAddress: Address;
  /** Where `<chainId>.json` is written; default deployments/. */
  outDir?: string;
  /** Where the USDC collateral comes from; default a TestUSDC of its own (local chains only). */
  usdc?: UsdcPlan;
}

/**
 * The USDC collateral (docs/dev-chain.md): a mintable TestUSDC at its own address (`deploy`) or planted at the
 * chain's canonical USDC address (`plant`), both on a development node only; or the chain's own USDC (`existing`:
 * a fork of Base, or a live chain), which must have code there.
 */
export type UsdcPlan = { kind: "deploy" } | { kind: "plant"; at: Address } | { kind: "existing"; at: Address };

/** Version of the router's intent ABI; bump when TradeIntent/BasketIntent change. */
export const ROUTER_ABI_VERSION = "1";

/** `dir` is a folder under contracts/, or a path under artifacts/ starting with "@" (library contracts). */
function artifact(name: string, dir: string): { abi: Abi; bytecode: Hex } {
  const base = dir.startsWith("@") ? join(ROOT, "artifacts", dir) : join(ROOT, "artifacts", "contracts", dir);
  const a = JSON.parse(readFileSync(join(base, `${name}.sol`, `${name}.json`), "utf8"));
  return { abi: a.abi, bytecode: a.bytecode };
}

/** Deploys every contract, wires roles and factories, and writes `<outDir>/<chainId>.json`. */
export async function deployAll(opts: DeployOptions): Promise<Deployment> {
  const transport = http(opts.rpcUrl);
  const chainId = await createPublicClient({ transport }).getChainId();
  const chain = rpcChain(chainId, opts.rpcUrl);
  const client = createPublicClient({ chain, transport });
  const account = privateKeyToAccount(opts.deployerKey);
  const wallet = createWalletClient({ chain, account, transport });
  const contracts: Record<string, DeployedContract> = {};

  const deploy = async (name: string, dir: string, args: unknown[], artifactName = name): Promise<Address> => {
    const { abi, bytecode } = artifact(artifactName, dir);
    const hash = await wallet.deployContract({ abi, bytecode, args });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`deploying ${name} failed (tx ${hash})`);
    const code = await client.getCode({ address: receipt.contractAddress, blockNumber: receipt.blockNumber });
    if (!code) throw new Error(`${name} has no code at ${receipt.contractAddress}`);
    contracts[name] = {
      address: receipt.contractAddress,
      blockNumber: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
      txHash: hash,
      runtimeCodeHash: keccak256(code),
    };
    return receipt.contractAddress;
  };
  const usdcCollateral = async (plan: UsdcPlan): Promise<Address> => {
    if (plan.kind === "existing") {
      const [code, head] = [await client.getCode({ address: plan.at }), await client.getBlock()];
      if (!code || code === "0x") throw new Error(`no USDC at ${plan.at} on chain ${chainId} (no code there)`);
      // Read from here on: the indexer and the facilitator start at this block, not at the token's genesis.
      contracts.USDC = { address: plan.at, blockNumber: Number(head.number), blockHash: head.hash, runtimeCodeHash: keccak256(code) };
      return plan.at;
    }
    await assertDevNode(client, "the mintable TestUSDC");
    // Deployed even when planted: its code carries the immutables, and later contracts keep their addresses.
    const deployed = await deploy("TestUSDC", "tokens", []);
    if (plan.kind === "deploy") return deployed;
    await plantTestUsdc(client, deployed, plan.at);
    const { txHash: _template, ...rest } = contracts.TestUSDC;
    contracts.TestUSDC = { ...rest, address: plan.at };
    return plan.at;
  };
  const send = async (name: string, dir: string, address: Address, functionName: string, args: unknown[]) => {
    const hash = await wallet.writeContract({ address, abi: artifact(name, dir).abi, functionName, args });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${name}.${functionName} failed (tx ${hash})`);
  };

  await deploy("CommittedLedger", "ledger", [account.address, opts.operatorAddress, opts.treasuryAddress]);
  const pm = await deploy("PlayMoney", "tokens", [account.address]);
  const minterRole = (await client.readContract({ address: pm, abi: artifact("PlayMoney", "tokens").abi, functionName: "MINTER_ROLE" })) as Hex;
  await send("PlayMoney", "tokens", pm, "grantRole", [minterRole, opts.operatorAddress]);
  const outcome = await deploy("OutcomeToken", "tokens", [account.address, "https://metadata.invalid/outcome/{id}.json"]);
  const usdc = await usdcCollateral(opts.usdc ?? { kind: "deploy" });
  const collateralTokens = [
    { symbol: "USDC", token: usdc },
    { symbol: "PM", token: pm },
  ];
  for (const [name, outcomeCount] of [
    ["BinaryFactory", 2],
    ["TernaryFactory", 3],
  ] as const) {
    // Fee defaults live on chain; the initial ones are the schedule the service publishes (FEE_DEFAULTS).
    const { sellExitFeeBps, winningsExitFeeBps } = FEE_DEFAULTS.lmsr;
    const factory = await deploy(
      name,
      "markets",
      [account.address, outcome, outcomeCount, opts.treasuryAddress, sellExitFeeBps, winningsExitFeeBps],
      "LmsrFactory",
    );
    await send("OutcomeToken", "tokens", outcome, "setFactory", [factory, true]);
    for (const c of collateralTokens) await send("LmsrFactory", "markets", factory, "setCollateral", [c.token, true]);
  }

  const routerImpl = await deploy("RouterImplementation", "router", [], "IntentRouter");
  const routerAbi = artifact("IntentRouter", "router").abi;
  const collaterals: Deployment["collaterals"] = [];
  for (const c of collateralTokens) {
    const init = encodeFunctionData({ abi: routerAbi, functionName: "initialize", args: [account.address, c.token] });
    const router = await deploy(`Router:${c.symbol}`, "@openzeppelin/contracts/proxy/ERC1967", [routerImpl, init], "ERC1967Proxy");
    collaterals.push({ symbol: c.symbol, token: c.token, decimals: 6, router });
  }

  // Market lifecycle: the order-book factory (fee defaults of the committed lane's ORDERBOOK markets) and the
  // resolver role for the service's sending key. Last, so every earlier contract keeps its deterministic address.
  const ob = FEE_DEFAULTS.orderbook;
  const feePolicyVersion = FEE_POLICY_VERSIONS.indexOf(ob.feePolicyVersion);
  await deploy("OrderbookFactory", "markets", [
    account.address,
    contracts.CommittedLedger.address,
    feePolicyVersion,
    ob.routerTakerFeeBps,
    ob.operatorBatchFeeBps,
    ob.winningsExitFeeBps,
  ]);
  const resolverRole = (await client.readContract({
    address: contracts.BinaryFactory.address,
    abi: artifact("LmsrFactory", "markets").abi,
    functionName: "RESOLVER_ROLE",
  })) as Hex;
  for (const name of ["BinaryFactory", "TernaryFactory"])
    await send("LmsrFactory", "markets", contracts[name].address, "grantRole", [resolverRole, opts.operatorAddress]);
  // PM's participation release (docs/participation-release.md): the distributor, whose vouchers the operator signs,
  // stocked with the whole community pool. The deployer mints it once and gives the minting right back.
  const distributor = await deploy("ParticipationDistributor", "release", [pm, participationReleaseId(chainId), account.address, opts.operatorAddress]);
  await send("PlayMoney", "tokens", pm, "grantRole", [minterRole, account.address]);
  await send("PlayMoney", "tokens", pm, "mint", [distributor, COMMUNITY_POOL_WEI]);
  await send("PlayMoney", "tokens", pm, "renounceRole", [minterRole, account.address]);
  const fn = (name: string) => {
    const item = routerAbi.find((x): x is AbiFunction => x.type === "function" && x.name === name);
    if (!item) throw new Error(`IntentRouter ABI lacks ${name}`);
    const signature = toFunctionSignature(item);
    return { signature, selector: toFunctionSelector(signature) };
  };

  const record: Deployment = {
    chainId,
    deployer: account.address,
    operator: opts.operatorAddress,
    treasury: opts.treasuryAddress,
    contracts,
    collaterals,
    routerInterface: {
      abiVersion: ROUTER_ABI_VERSION,
      runtimeCodeHash: contracts.RouterImplementation.runtimeCodeHash!,
      functions: { executeTradeIntent: fn("executeTradeIntent"), executeBasketIntent: fn("executeBasketIntent") },
    },
  };
  writeDeployment(record, opts.outDir);
  return record;
}
