/**
 * The on-chain trade lane: quotes from the market's live state (read from the chain, so a lagging projection never
 * misprices), EIP-712 TradeIntents for the collateral's IntentRouter, approval checks, and relayed execution with
 * the operator key. docs/trading-onchain.md.
 */
import { randomBytes } from "node:crypto";
import { createPublicClient, createWalletClient, hashTypedData, http, recoverTypedDataAddress, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ServiceContext } from "../../context";
import { ApiError } from "../../platform/errors/api-error";
import { approvalRecipes } from "../../domain/protocol/chains";
import { deploymentFile, readDeployment, type Deployment } from "../../domain/protocol/deployment";
import { getOnchainMarket, type OnchainMarket, type OnchainProjection } from "../../domain/onchain/reads";
import { intentRouterAbi, lmsrMarketAbi, outcomeTokenAbi, testUSDCAbi } from "../../../generated/abis";
import { quoteBuyShares, quoteSell, slippageLimit, WAD } from "../../../relayer/pricing/lmsr";
import { TRADE_DEFAULTS } from "../../domain/trading/trade-defaults";
import type { TradeRequest } from "../../domain/trading/lanes";
import { rpcChain } from "../../../relayer/rpc-chain";

/** How long a prepared intent may be submitted (its `deadline`). */
export const INTENT_TTL_SECONDS = 300;

export const TRADE_INTENT_TYPES = {
  TradeIntent: [
    { name: "trader", type: "address" },
    { name: "market", type: "address" },
    { name: "outcome", type: "uint8" },
    { name: "isBuy", type: "bool" },
    { name: "amount", type: "uint256" },
    { name: "limit", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "nonce", type: "uint256" },
  ],
} as const;

/** The deployment and chain clients of the on-chain lane. */
export interface OnchainLaneClients {
  deployment: Deployment;
  client: ReturnType<typeof createPublicClient>;
  wallet: ReturnType<typeof createWalletClient>;
  /** Operator sends are serialised so their nonces never collide. */
  sendChain: Promise<unknown>;
}
/** The lane's clients as `Services.trading.onchain` holds them: opened on first use (the deployment may come later). */
export type OnchainLaneRuntime = () => OnchainLaneClients;

/** Reads deployments/<chainId>.json and builds the clients; throws while the file is missing. */
export function openOnchainLaneClients(config: ServiceContext["config"]): OnchainLaneClients {
  const deployment = readDeployment(deploymentFile(config.CHAIN_ID));
  const chain = rpcChain(config.CHAIN_ID, config.rpcUrl);
  const transport = http(config.rpcUrl);
  return {
    deployment,
    client: createPublicClient({ chain, transport }),
    wallet: createWalletClient({ chain, transport, account: privateKeyToAccount(config.OPERATOR_PRIVATE_KEY as Hex) }),
    sendChain: Promise.resolve(),
  };
}

export async function onchainMarketOrNull(projection: OnchainProjection, address: string): Promise<OnchainMarket | null> {
  try {
    return await getOnchainMarket(projection, address);
  } catch (err) {
    throw new ApiError("SERVICE_UNAVAILABLE", `the on-chain projection is unreachable: ${(err as Error).message}`, {}, { "Retry-After": "2" }, { cause: err });
  }
}

function collateralOf(runtime: OnchainLaneRuntime, m: OnchainMarket) {
  const c = runtime().deployment.collaterals.find((x) => x.token.toLowerCase() === m.collateral.toLowerCase());
  if (!c) throw new ApiError("CONFLICT", `market ${m.address} uses a collateral without a router`);
  return c;
}

export interface OnchainQuote {
  lane: "onchain";
  market: string;
  chainId: number;
  outcome: number;
  side: "buy" | "sell";
  shares: string;
  /** Buy: collateral paid. Sell: net proceeds. */
  amount: string;
  fee: string;
  averagePrice: number;
  priceAfter: number;
  slippageBps: number;
  /** Buy: max cost; sell: min proceeds (the intent's `limit`). */
  limit: string;
  collateral: { symbol: string; token: string; decimals: number; router: string };
  quotedAt: string;
  recommendedRefreshMs: number;
}

export async function quoteOnchain(ctx: ServiceContext, runtime: OnchainLaneRuntime, m: OnchainMarket, req: TradeRequest): Promise<OnchainQuote> {
  if (req.outcome >= m.outcomeCount) throw new ApiError("INVALID_PAYLOAD", `outcome must be below ${m.outcomeCount}`, { field: "outcome" });
  if (m.status !== "open") throw new ApiError("MARKET_CLOSED", `market ${m.address} is ${m.status}`);
  const rt = runtime();
  const q = (await rt.client.readContract({ address: m.address as Address, abi: lmsrMarketAbi, functionName: "outstanding" })) as readonly bigint[];
  const state = { b: BigInt(m.b), q: [...q] };
  let amount: bigint;
  let fee: bigint;
  let priceAfter: bigint;
  try {
    if (req.side === "buy") ({ cost: amount, fee, priceAfter } = quoteBuyShares(state, req.outcome, req.shares));
    else ({ proceeds: amount, fee, priceAfter } = quoteSell(state, req.outcome, req.shares, m.sellExitFeeBps));
  } catch (err) {
    throw new ApiError("INVALID_PAYLOAD", (err as Error).message, { field: "shares" });
  }
  const c = collateralOf(runtime, m);
  return {
    lane: "onchain",
    market: m.address,
    chainId: ctx.config.CHAIN_ID,
    outcome: req.outcome,
    side: req.side,
    shares: req.shares.toString(),
    amount: amount.toString(),
    fee: fee.toString(),
    averagePrice: Number(((amount + (req.side === "sell" ? fee : 0n)) * 1_000_000n) / req.shares) / 1_000_000,
    priceAfter: Number((priceAfter * 1_000_000n) / WAD) / 1_000_000,
    slippageBps: req.slippageBps,
    limit: slippageLimit(amount, req.slippageBps, req.side === "buy" ? "pay" : "receive").toString(),
    collateral: { symbol: c.symbol, token: c.token, decimals: c.decimals, router: c.router },
    quotedAt: new Date(ctx.clock.now()).toISOString(),
    recommendedRefreshMs: TRADE_DEFAULTS.recommendedRefreshMs,
  };
}

/** 409 CONFLICT with the approval recipes when the trader has not approved the router for this trade. */
export async function checkApprovals(runtime: OnchainLaneRuntime, m: OnchainMarket, trader: Address, quote: OnchainQuote): Promise<void> {
  const rt = runtime();
  const c = collateralOf(runtime, m);
  const router = c.router as Address;
  if (quote.side === "buy") {
    const allowance = (await rt.client.readContract({ address: c.token as Address, abi: testUSDCAbi, functionName: "allowance", args: [trader, router] })) as bigint;
    if (allowance < BigInt(quote.limit)) {
      throw new ApiError("CONFLICT", `${trader} has not approved ${c.symbol} to the router for at least ${quote.limit}`, {
        reason: "approval_required",
        approvals: approvalRecipes(rt.deployment, c).filter((r) => r.kind === "erc20_approve"),
      });
    }
  } else {
    const outcomeToken = rt.deployment.contracts.OutcomeToken!.address as Address;
    const ok = (await rt.client.readContract({ address: outcomeToken, abi: outcomeTokenAbi, functionName: "isApprovedForAll", args: [trader, router] })) as boolean;
    if (!ok) {
      throw new ApiError("CONFLICT", `${trader} has not approved the router to move outcome tokens`, {
        reason: "approval_required",
        approvals: approvalRecipes(rt.deployment, c).filter((r) => r.kind === "erc1155_set_approval_for_all"),
      });
    }
  }
}

export interface PreparedIntent {
  digest: Hex;
  router: Address;
  intent: { trader: Address; market: Address; outcome: number; isBuy: boolean; amount: string; limit: string; deadline: string; nonce: string };
  typedData: {
    domain: { name: "IntentRouter"; version: "1"; chainId: number; verifyingContract: Address };
    types: typeof TRADE_INTENT_TYPES;
    primaryType: "TradeIntent";
    message: PreparedIntent["intent"];
  };
  expiresAt: string;
}

export function buildIntent(ctx: ServiceContext, runtime: OnchainLaneRuntime, m: OnchainMarket, trader: Address, quote: OnchainQuote): PreparedIntent {
  const router = collateralOf(runtime, m).router as Address;
  const deadline = BigInt(Math.floor(ctx.clock.now() / 1000) + INTENT_TTL_SECONDS);
  const nonce = BigInt(`0x${randomBytes(16).toString("hex")}`);
  const domain = { name: "IntentRouter", version: "1", chainId: ctx.config.CHAIN_ID, verifyingContract: router } as const;
  const message = { trader, market: m.address as Address, outcome: quote.outcome, isBuy: quote.side === "buy", amount: BigInt(quote.shares), limit: BigInt(quote.limit), deadline, nonce };
  const digest = hashTypedData({ domain, types: TRADE_INTENT_TYPES, primaryType: "TradeIntent", message });
  const intent = { ...message, amount: message.amount.toString(), limit: message.limit.toString(), deadline: deadline.toString(), nonce: nonce.toString() };
  return { digest, router, intent, typedData: { domain, types: TRADE_INTENT_TYPES, primaryType: "TradeIntent", message: intent }, expiresAt: new Date(Number(deadline) * 1000).toISOString() };
}

const intentArgs = (i: PreparedIntent["intent"]) => ({
  trader: i.trader,
  market: i.market,
  outcome: i.outcome,
  isBuy: i.isBuy,
  amount: BigInt(i.amount),
  limit: BigInt(i.limit),
  deadline: BigInt(i.deadline),
  nonce: BigInt(i.nonce),
});

/** Whether `signature` is the trader's over the stored intent (EOA signatures; contract wallets are checked on chain). */
export async function signatureMatches(ctx: ServiceContext, router: Address, intent: PreparedIntent["intent"], signature: Hex): Promise<boolean> {
  try {
    const signer = await recoverTypedDataAddress({
      domain: { name: "IntentRouter", version: "1", chainId: ctx.config.CHAIN_ID, verifyingContract: router },
      types: TRADE_INTENT_TYPES,
      primaryType: "TradeIntent",
      message: intentArgs(intent),
      signature,
    });
    return signer.toLowerCase() === intent.trader.toLowerCase();
  } catch {
    return false;
  }
}

/** Sends executeTradeIntent with the operator key and waits for the receipt. */
export async function relayIntent(runtime: OnchainLaneRuntime, router: Address, intent: PreparedIntent["intent"], signature: Hex): Promise<{ txHash: Hex; status: "success" | "reverted"; blockNumber: bigint }> {
  const rt = runtime();
  const run = rt.sendChain.then(async () => {
    const { request } = await rt.client.simulateContract({ account: rt.wallet.account!, address: router, abi: intentRouterAbi, functionName: "executeTradeIntent", args: [intentArgs(intent), signature] });
    return rt.wallet.writeContract(request);
  });
  rt.sendChain = run.catch(() => undefined);
  const txHash = await run;
  const receipt = await rt.client.waitForTransactionReceipt({ hash: txHash });
  return { txHash, status: receipt.status, blockNumber: receipt.blockNumber };
}
