import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { CASH_FLOW_KINDS } from "../../domain/ranking/cash-flows";
import { catalogAddressesOf } from "../../domain/lifecycle/catalog-ids";
import { addressParams, PUBLIC_READ } from "./common";
import { iso, wei } from "./ranking-schemas";

export const CASH_FLOW_METHOD = "committed-cash-flow-v1" as const;
const DEPRECATED_SINCE = "2026-11-29";

/**
 * GET /discover/traders/{address}/pnl-history: the spec's "PnL history by address (deprecated cash-flow history)",
 * served for the clients written against it and deprecated from the start (docs/leaderboard.md "P&L history
 * (deprecated)"): P&L without marks, which the trading profile replaces.
 */
export const getPnlHistory = defineOperation({
  id: "getPnlHistory",
  method: "GET",
  path: "/discover/traders/{address}/pnl-history",
  summary: "Deprecated: an account's trading cash flows, entry by entry, with the running sum",
  description:
    "What the account paid and received in collateral for its trading (fills, LMSR trades, payouts, refunds), newest first, with the running sum over the journal. P&L without marks: a position still held counts as what it cost. Use GET /discover/traders/{address} (P&L at the displayed prices) instead.",
  ...PUBLIC_READ,
  request: {
    params: addressParams,
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(100).default(50),
      cursor: z
        .string()
        .regex(/^[1-9]\d{0,15}$/)
        .optional()
        .describe("the `nextCursor` of the page before"),
    }),
  },
  response: z.object({
    address: z.string(),
    method: z.literal(CASH_FLOW_METHOD),
    unit: z.object({ symbol: z.literal("PM"), decimals: z.literal(6), cashValue: z.literal(false) }),
    netCashFlow: wei.describe("the sum of every cash flow of the account, base units"),
    total: z.number().int().min(0).describe("cash flows of the account in the journal"),
    nextCursor: z.string().nullable(),
    points: z.array(
      z.object({
        seq: z.number().int().min(1).describe("the journal entry"),
        at: iso,
        marketId: z.string(),
        marketAddress: z.string().nullable(),
        kind: z.enum(CASH_FLOW_KINDS),
        outcome: z.number().int().nullable(),
        shares: wei.describe("shares of `outcome` gained (buy) or given up, base units"),
        cashFlow: wei.describe("collateral received (> 0) or paid (< 0), fees included, base units"),
        fee: wei,
        cumulative: wei.describe("the running sum up to and including this cash flow"),
      }),
    ),
  }),
  mcpTool: "svc_get_pnl_history",
  deprecation: { since: DEPRECATED_SINCE, replacement: "GET /discover/traders/{address}" },
  async handler(ctx, { params, query }, call) {
    const before = query.cursor === undefined ? null : Number(query.cursor);
    const page = await call.services.cashFlows.page(params.address, before, query.limit);
    if (before !== null && before > page.total)
      throw new ApiError("INVALID_PAYLOAD", "the cursor is not a position of this account's history", { field: "cursor", location: "query" });
    const addresses = await catalogAddressesOf(
      ctx.db,
      ctx.config.CHAIN_ID,
      page.flows.map((f) => f.marketId),
    );
    return {
      address: params.address,
      method: CASH_FLOW_METHOD,
      unit: { symbol: "PM" as const, decimals: 6 as const, cashValue: false as const },
      netCashFlow: page.net.toString(),
      total: page.total,
      nextCursor: page.next === null ? null : String(page.next),
      points: page.flows.map((f) => ({
        seq: f.seq,
        at: new Date(f.at).toISOString(),
        marketId: f.marketId.toString(),
        marketAddress: addresses.get(f.marketId.toString()) ?? null,
        kind: f.kind,
        outcome: f.outcome,
        shares: f.shares.toString(),
        cashFlow: f.cashFlow.toString(),
        fee: f.fee.toString(),
        cumulative: f.cumulative.toString(),
      })),
    };
  },
});
