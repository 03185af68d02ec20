/**
 * The onchain lane: LmsrMarkets trade through their collateral's IntentRouter (docs/trading-onchain.md). Quotes price
 * the market's live state read from the chain (a lagging projection never misprices), prepare checks the router
 * approvals and returns the EIP-712 TradeIntent to sign, submit relays the signed intent with the operator key, and an
 * intent's execution is read from the projection.
 */
import type { Address, Hex } from "viem";
import type { ServiceContext } from "../../context";
import { ApiError } from "../../platform/errors/api-error";
import { getOnchainMarket, type OnchainMarket, type OnchainProjection } from "../onchain/reads";
import type { IntentExecutionRow } from "../onchain/rows";
import { quoteBuyShares, quoteSell, slippageLimit, WAD } from "../../../relayer/pricing/lmsr";
import { TRADE_DEFAULTS } from "./trade-defaults";
import { BOUND_FIELDS, type PrepareRequest, type TradeRequest } from "./trade-request";
import type { OnchainQuote, PreparedIntent, SubmittedIntent, TradeIntentView } from "./trade-answers";
import type { TradeLane } from "./trade-lane";
import { onchainChain, type OnchainChain } from "./onchain-chain";
import { buildIntent, signatureMatches } from "./onchain-intents";
import { claimIntent, loadIntent, markIntent, saveIntent, type StoredIntent } from "./intent-store";

/**
 * The onchain lane of `ctx`'s chain, its markets and executions read from `projection` (`Services.onchain`): `at(m)` is
 * the lane of one market; intents are read and submitted by digest.
 */
export function onchainLane(ctx: ServiceContext, projection: OnchainProjection, chain: OnchainChain = onchainChain(ctx.config)) {
  const quote = async (m: OnchainMarket, req: TradeRequest): Promise<OnchainQuote> => {
    if (req.outcome >= m.outcomeCount) throw new ApiError("INVALID_PAYLOAD", `outcome must be below ${m.outcomeCount}`, { field: "outcome" });
    if (m.status !== "open") throw new ApiError("MARKET_CLOSED", `market ${m.address} is ${m.status}`);
    const state = { b: BigInt(m.b), q: await chain.outstanding(m) };
    let amount: bigint;
    let fee: bigint;
    let priceAfter: bigint;
    try {
      if (req.side === "buy") ({ cost: amount, fee, priceAfter } = quoteBuyShares(state, req.outcome, req.shares));
      else ({ proceeds: amount, fee, priceAfter } = quoteSell(state, req.outcome, req.shares, m.sellExitFeeBps));
    } catch (err) {
      throw new ApiError("INVALID_PAYLOAD", (err as Error).message, { field: "shares" });
    }
    const c = chain.collateralOf(m);
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
  };

  const prepare = async (m: OnchainMarket, req: PrepareRequest, principal: { agentId: string; walletAddress: string | null }): Promise<PreparedIntent> => {
    const bound = BOUND_FIELDS.find((f) => req[f] !== undefined);
    if (bound)
      throw new ApiError("INVALID_PAYLOAD", `\`${bound}\` applies to committed-lane markets; the onchain lane's bound is the signed intent's limit`, {
        field: bound,
      });
    const trader = (req.trader ?? principal.walletAddress)?.toLowerCase() as Address | undefined;
    if (!trader) throw new ApiError("INVALID_PAYLOAD", "the onchain lane needs a signing wallet: bind one or pass `trader`", { field: "trader" });
    if (principal.walletAddress && trader !== principal.walletAddress.toLowerCase()) {
      throw new ApiError("INVALID_PAYLOAD", "`trader` must be the agent's bound wallet", { field: "trader" });
    }
    const q = await quote(m, req);
    await chain.checkApprovals(m, trader, { side: q.side, limit: BigInt(q.limit) });
    const now = ctx.clock.now();
    const prepared = buildIntent({ chainId: ctx.config.CHAIN_ID, router: chain.collateralOf(m).router as Address, trader, quote: q, now });
    await saveIntent(ctx.db, { agentId: principal.agentId, chainId: ctx.config.CHAIN_ID, prepared, quote: q, now });
    return { lane: "onchain", market: m.address, status: "prepared", ...prepared, quote: q, submit: { method: "POST", path: "/trade/submit" } };
  };

  /** The agent's own intent; another agent's answers the same NOT_FOUND as an unknown digest. */
  const ownIntent = async (digest: string, agentId: string): Promise<StoredIntent> => {
    const stored = await loadIntent(ctx.db, digest);
    if (!stored || stored.agentId !== agentId) throw new ApiError("NOT_FOUND", `no intent ${digest} of this agent`);
    return stored;
  };

  return {
    /** The projection's LmsrMarket at `address`, or null; SERVICE_UNAVAILABLE when the projection cannot be asked. */
    async marketOrNull(address: string): Promise<OnchainMarket | null> {
      try {
        return await getOnchainMarket(projection, address);
      } catch (err) {
        throw new ApiError(
          "SERVICE_UNAVAILABLE",
          `the on-chain projection is unreachable: ${(err as Error).message}`,
          {},
          { "Retry-After": "2" },
          { cause: err },
        );
      }
    },

    at(m: OnchainMarket): TradeLane {
      return { lane: "onchain", quote: (req) => quote(m, req), prepare: (req, principal) => prepare(m, req, principal) };
    },

    /** A prepared intent, its submission and its execution as the indexer projected it. */
    async intent(digest: string, agentId: string): Promise<TradeIntentView> {
      const stored = await ownIntent(digest, agentId);
      let executions: IntentExecutionRow[] = [];
      let reached: "ok" | "unreachable" = "ok";
      try {
        executions = await projection.reader.intentExecutions(stored.digest);
      } catch {
        reached = "unreachable";
      }
      const e = executions[0];
      const id = { digest: stored.digest, lane: stored.lane };
      const what = { market: stored.market, router: stored.router, intent: stored.intent, quote: stored.quote };
      const tail = { projection: reached, createdAt: new Date(stored.createdAt).toISOString(), expiresAt: new Date(stored.expiresAt).toISOString() };
      // The projection is the authority for "executed": a receipt alone may still be reorged away.
      if (e) {
        const execution = {
          txHash: e.txHash,
          blockNumber: Number(e.blockNumber),
          shares: e.shares,
          amount: e.amount,
          at: new Date(Number(e.timestamp) * 1000).toISOString(),
        };
        return { ...id, status: "executed", ...what, txHash: e.txHash, error: stored.error, execution, ...tail };
      }
      return {
        ...id,
        status: stored.status === "executed" ? "submitted" : stored.status,
        ...what,
        txHash: stored.txHash,
        error: stored.error,
        execution: null,
        ...tail,
      };
    },

    /**
     * Relays the agent's signature over its prepared intent and answers after the receipt. The router re-checks
     * signature, nonce, deadline and limit; these checks only fail early.
     */
    async submit(digest: string, signature: Hex, agentId: string): Promise<SubmittedIntent> {
      const stored = await ownIntent(digest, agentId);
      if (stored.expiresAt <= ctx.clock.now()) throw new ApiError("CONFLICT", "the intent's deadline has passed: prepare a new one", { reason: "expired" });
      if (!(await signatureMatches(ctx.config.CHAIN_ID, stored.router as Address, stored.intent, signature))) {
        throw new ApiError("INVALID_PAYLOAD", "the signature is not the trader's over this intent", { field: "signature" });
      }
      if (!(await claimIntent(ctx.db, stored.digest)))
        throw new ApiError("CONFLICT", `intent ${stored.digest} is already ${stored.status}`, { reason: "already_submitted" });
      try {
        const r = await chain.relay(stored.router as Address, stored.intent, signature);
        const failed = r.status !== "success";
        await markIntent(ctx.db, stored.digest, failed ? "failed" : "executed", r.txHash, failed ? "reverted" : null);
        return {
          digest: stored.digest,
          status: failed ? "failed" : "submitted",
          txHash: r.txHash,
          blockNumber: Number(r.blockNumber),
          error: failed ? "reverted" : null,
        };
      } catch (err) {
        const msg = ((err as { shortMessage?: string }).shortMessage ?? (err as Error).message).slice(0, 500);
        await markIntent(ctx.db, stored.digest, "failed", null, msg);
        return { digest: stored.digest, status: "failed", txHash: null, blockNumber: null, error: msg };
      }
    },
  };
}
