/**
 * Deploys the service's contracts to a running chain with viem (no Hardhat runtime, so it works against any node)
 * and writes `deployments/<chainId>.json`: addresses, deployment blocks (number and hash), transaction hashes and
 * runtime code hashes, which `npm start`, the API (`/discover/contracts`, `/discover/token-release`), the decoder and
 * the indexer read.
 *
 *   tsx scripts/deploy.ts --rpc http://127.0.0.1:8545
 *
 * Deterministic: the same deployer on a fresh chain gets the same addresses, so a restarted local chain lines up
 * with a resumed data directory.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, createWalletClient, encodeFunctionData, http, keccak256, toFunctionSelector, toFunctionSignature, type Abi, type AbiFunction, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { rpcChain } from "../relayer/rpc-chain";
import { FEE_DEFAULTS, FEE_POLICY_VERSIONS } from "../relayer/pricing/fees";

const ROOT = join(__dirname, "..");

export interface DeployOptions {
  rpcUrl: string;
  deployerKey: Hex;
  operatorAddress: Address;
  treasuryAddress: Address;
  /** Where `<chainId>.json` is written; default deployments/. */
  outDir?: string;
}

export interface DeployedContract {
  address: Address;
  blockNumber: number;
  /**
   * Hash of the block that holds the deployment: tells a reorged or replaced chain from the one deployed to.
   * deployAll always writes it; optional because artifacts written before it was recorded lack it.
   */
  blockHash?: Hex;
  txHash: Hex;
  /** keccak256 of the deployed runtime code (for a proxy: the proxy's own code); optional as blockHash. */
  runtimeCodeHash?: Hex;
}

export interface DeploymentRecord {
  chainId: number;
  deployer: Address;
  operator: Address;
  treasury: Address;
  contracts: Record<string, DeployedContract>;
  collaterals: { symbol: string; token: Address; decimals: number; router: Address }[];
  routerInterface: RouterInterface;
}

/** What a client needs to recognise the Router implementation and call it. */
export interface RouterInterface {
  abiVersion: string;
  /** keccak256 of the implementation's runtime code. */
  runtimeCodeHash: Hex;
  functions: Record<"executeTradeIntent" | "executeBasketIntent", { signature: string; selector: Hex }>;
}

/** Version of the router's intent ABI; bump when TradeIntent/BasketIntent change. */
export const ROUTER_ABI_VERSION = "1";

/** `dir` is a folder under contracts/, or a path under artifacts/ starting with "@" (library contracts). */
function artifact(name: string, dir: string): { abi: Abi; bytecode: Hex } {
  const base = dir.startsWith("@") ? join(ROOT, "artifacts", dir) : join(ROOT, "artifacts", "contracts", dir);
  const a = JSON.parse(readFileSync(join(base, `${name}.sol`, `${name}.json`), "utf8"));
  return { abi: a.abi, bytecode: a.bytecode };
}

export async function deployAll(opts: DeployOptions): Promise<DeploymentRecord> {
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
    contracts[name] = { address: receipt.contractAddress, blockNumber: Number(receipt.blockNumber), blockHash: receipt.blockHash, txHash: hash, runtimeCodeHash: keccak256(code) };
    return receipt.contractAddress;
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
  const usdc = await deploy("TestUSDC", "tokens", []);
  const collateralTokens = [
    { symbol: "USDC", token: usdc },
    { symbol: "PM", token: pm },
  ];
  for (const [name, outcomeCount] of [["BinaryFactory", 2], ["TernaryFactory", 3]] as const) {
    // Fee defaults live on chain; the initial ones are the schedule the service publishes (FEE_DEFAULTS).
    const { sellExitFeeBps, winningsExitFeeBps } = FEE_DEFAULTS.lmsr;
    const factory = await deploy(name, "markets", [account.address, outcome, outcomeCount, opts.treasuryAddress, sellExitFeeBps, winningsExitFeeBps], "LmsrFactory");
    await send("OutcomeToken", "tokens", outcome, "setFactory", [factory, true]);
    for (const c of collateralTokens) await send("LmsrFactory", "markets", factory, "setCollateral", [c.token, true]);
  }

  const routerImpl = await deploy("RouterImplementation", "router", [], "IntentRouter");
  const routerAbi = artifact("IntentRouter", "router").abi;
  const collaterals: DeploymentRecord["collaterals"] = [];
  for (const c of collateralTokens) {
    const init = encodeFunctionData({ abi: routerAbi, functionName: "initialize", args: [account.address, c.token] });
    const router = await deploy(`Router:${c.symbol}`, "@openzeppelin/contracts/proxy/ERC1967", [routerImpl, init], "ERC1967Proxy");
    collaterals.push({ symbol: c.symbol, token: c.token, decimals: 6, router });
  }

  // Market lifecycle: the order-book factory (fee defaults of the committed lane's ORDERBOOK markets) and the
  // resolver role for the service's sending key. Last, so every earlier contract keeps its deterministic address.
  const ob = FEE_DEFAULTS.orderbook;
  const feePolicyVersion = FEE_POLICY_VERSIONS.indexOf(ob.feePolicyVersion);
  await deploy("OrderbookFactory", "markets", [account.address, contracts.CommittedLedger.address, feePolicyVersion, ob.routerTakerFeeBps, ob.operatorBatchFeeBps, ob.winningsExitFeeBps]);
  const resolverRole = (await client.readContract({ address: contracts.BinaryFactory.address, abi: artifact("LmsrFactory", "markets").abi, functionName: "RESOLVER_ROLE" })) as Hex;
  for (const name of ["BinaryFactory", "TernaryFactory"]) await send("LmsrFactory", "markets", contracts[name].address, "grantRole", [resolverRole, opts.operatorAddress]);

  const fn = (name: string) => {
    const item = routerAbi.find((x): x is AbiFunction => x.type === "function" && x.name === name);
    if (!item) throw new Error(`IntentRouter ABI lacks ${name}`);
    const signature = toFunctionSignature(item);
    return { signature, selector: toFunctionSelector(signature) };
  };

  const record: DeploymentRecord = {
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
  const outDir = opts.outDir ?? join(ROOT, "deployments");
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${chainId}.json`), JSON.stringify(record, null, 2) + "\n");
  return record;
}

if (require.main === module) {
  void (async () => {
    const { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY } = await import("../api/config");
    const rpcIndex = process.argv.indexOf("--rpc");
    const rpcUrl = rpcIndex > 0 ? process.argv[rpcIndex + 1] : process.env.RPC_URL ?? "http://127.0.0.1:8545";
    const record = await deployAll({
      rpcUrl,
      deployerKey: (process.env.DEPLOYER_PRIVATE_KEY as Hex | undefined) ?? DEV_DEPLOYER_KEY,
      operatorAddress: privateKeyToAccount((process.env.OPERATOR_PRIVATE_KEY as Hex | undefined) ?? DEV_OPERATOR_KEY).address,
      treasuryAddress: (process.env.TREASURY_ADDRESS as Address | undefined) ?? "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    });
    console.log(JSON.stringify(record, null, 2));
  })().catch((err) => {
    console.error(`deploy failed: ${(err as Error).message}`);
    process.exit(1);
  });
}
