import { z } from "zod";
import type { Address } from "viem";
import { defineOperation, Reply, TRADE_EXECUTE_ACCESS } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { buildIntent, checkApprovals, quoteOnchain } from "./onchain-lane";
import { laneOf, toRequest, tradeBody } from "./common";
import { saveIntent } from "./intent-store";
import type { PrepareBounds } from "../../domain/venue/committed-lane";

const units = z.string().regex(/^\d{1,78}$/);

/**
 * POST /trade/prepare: quotes, checks the router approvals (409 CONFLICT with the recipes when missing) and returns
 * the EIP-712 TradeIntent to sign; the intent is stored by its digest for GET /trade/intent/{digest} and
 * POST /trade/submit.
 */
export const prepareTrade = defineOperation({
  id: "prepareTrade",
  method: "POST",
  path: "/trade/prepare",
  summary: "Prepare a trade: the EIP-712 intent to sign (onchain lane) or the engine's order (committed lane)",
  category: "trading",
  // On the committed lane prepare executes the trade: a retry must replay, never trade twice.
  ...TRADE_EXECUTE_ACCESS,
  errors: ["MARKET_NOT_FOUND", "MARKET_CLOSED", "CONFLICT", "INSUFFICIENT_BALANCE", "FILL_ALLOWANCE_EXHAUSTED", "SERVICE_UNAVAILABLE"],
  request: {
    body: tradeBody.extend({
      trader: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional().describe("signing wallet; default the agent's bound wallet"),
      // Committed lane only: the quote's bound echoed back, so a market that moved after the quote is refused
      // (CONFLICT reason SLIPPAGE) instead of re-priced (docs/venue.md).
      limitPriceBps: z.string().regex(/^[1-9]\d{0,3}$/).refine((v) => Number(v) <= 9_999, "1..9999").optional().describe("ORDERBOOK (committed lane): the IOC limit, the quote's limitPriceBps"),
      maxCost: units.optional().describe("automated buy (committed lane): the most PM to pay, the quote's maxCost"),
      minProceeds: units.optional().describe("automated sell (committed lane): the least PM to receive, the quote's minProceeds"),
    }),
  },
  status: 201,
  response: z.looseObject({ lane: z.enum(["onchain", "committed"]), market: z.string() }),
  mcpTool: "svc_prepare_trade",
  async handler(ctx, { body }, call) {
    const req = toRequest(body);
    const p = call.principal;
    const lane = await laneOf(ctx, call.services, req.market);
    const bounds: PrepareBounds = {
      limitPriceBps: body.limitPriceBps === undefined ? undefined : Number(body.limitPriceBps),
      maxCost: body.maxCost === undefined ? undefined : BigInt(body.maxCost),
      minProceeds: body.minProceeds === undefined ? undefined : BigInt(body.minProceeds),
    };
    if (lane.lane === "committed") return new Reply(201, { lane: "committed" as const, market: req.market, ...(await lane.impl.prepare({ ...req, ...bounds }, p)) });
    const bound = (["limitPriceBps", "maxCost", "minProceeds"] as const).find((f) => body[f] !== undefined);
    if (bound) throw new ApiError("INVALID_PAYLOAD", `\`${bound}\` applies to committed-lane markets; the onchain lane's bound is the signed intent's limit`, { field: bound });
    const trader = (body.trader ?? p.walletAddress)?.toLowerCase() as Address | undefined;
    if (!trader) throw new ApiError("INVALID_PAYLOAD", "the onchain lane needs a signing wallet: bind one or pass `trader`", { field: "trader" });
    if (p.walletAddress && trader !== p.walletAddress.toLowerCase()) {
      throw new ApiError("INVALID_PAYLOAD", "`trader` must be the agent's bound wallet", { field: "trader" });
    }
    const runtime = call.services.trading.onchain;
    const quote = await quoteOnchain(ctx, runtime, lane.market, req);
    await checkApprovals(runtime, lane.market, trader, quote);
    const prepared = buildIntent(ctx, runtime, lane.market, trader, quote);
    await saveIntent(ctx.db, { agentId: p.agentId, chainId: ctx.config.CHAIN_ID, prepared, quote, now: ctx.clock.now() });
    return new Reply(201, { lane: "onchain" as const, market: lane.market.address, status: "prepared", ...prepared, quote, submit: { method: "POST", path: "/trade/submit" } });
  },
});
