import { z } from "zod";
import type { Address } from "viem";
import type { CommitUnit } from "../../../relayer/db/group-commit";
import { defineOperation, Reply } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { problemOf } from "../../platform/errors/problem";
import type { Venue } from "../../domain/venue/types";
import { EXECUTE, FILLS_REMAINING_HEADER, fillsRemaining, orderbookMarketAt, submitPlacement, toSpec, venueAndAccount } from "./common";
import { marketField, ordersField, orderResultSchema, type OrderInput } from "./schemas";
import { orderResult } from "./serialize";

/** The most markets one batch quote-set replacement takes (docs/trading.md). */
export const MAX_QUOTE_SETS_PER_CALL = 20;

const quoteSetResult = z.discriminatedUnion("ok", [
  z.object({
    market: z.string(),
    ok: z.literal(true),
    orders: z.array(orderResultSchema),
    cancelled: z.array(z.string()).describe("ids of the orders this market's replacement cancelled"),
  }),
  z.object({
    market: z.string(),
    ok: z.literal(false),
    problem: z
      .looseObject({ type: z.string(), title: z.string(), status: z.number().int(), detail: z.string(), code: z.string() })
      .describe("the RFC 9457 problem this market's replacement would have answered alone; nothing changed in this market"),
  }),
]);

/**
 * POST /orderbook/replace-quotes-batch: the quote sets of up to 20 markets in one call (the spec's "batch quote-set
 * replacement", one write). Each market is replaced exactly as POST /orderbook/replace-quotes would (atomically: its
 * resting orders cancelled and the new set placed, or nothing changed there), one answer per market in request order;
 * a refused market does not stop the others. All of the call's commands are made durable together.
 */
export const replaceQuotesBatch = defineOperation({
  id: "replaceQuotesBatch",
  method: "POST",
  path: "/orderbook/replace-quotes-batch",
  summary: `Replace the agent's quote sets in up to ${MAX_QUOTE_SETS_PER_CALL} markets, atomically per market (one write)`,
  description: `\`quoteSets\` (1..${MAX_QUOTE_SETS_PER_CALL}, distinct markets), each \`{market, orders}\` as in POST /orderbook/replace-quotes. Each market is replaced atomically and answered on its own (\`ok\` with its orders and the ids it cancelled, or \`ok: false\` with the problem it would have answered alone); one write for the whole call. See docs/trading.md.`,
  ...EXECUTE,
  errors: ["SERVICE_UNAVAILABLE"],
  request: {
    body: z.strictObject({
      quoteSets: z
        .array(z.strictObject({ market: marketField, orders: ordersField(0) }))
        .min(1)
        .max(MAX_QUOTE_SETS_PER_CALL)
        .refine((sets) => new Set(sets.map((s) => s.market.toLowerCase())).size === sets.length, "each market at most once")
        .describe(`1..${MAX_QUOTE_SETS_PER_CALL} quote sets, one per market`),
    }),
  },
  response: z.object({
    results: z.array(quoteSetResult),
    fillsRemaining: z.number().int().describe("the agent's fill allowance after this call (also the X-Fills-Remaining header)"),
  }),
  mcpTool: "svc_replace_quotes_batch",
  async handler(ctx, { body }, call) {
    const { venue, account } = await venueAndAccount(call.services, call.principal);
    const results: z.input<typeof quoteSetResult>[] = [];
    for (const set of body.quoteSets) {
      try {
        results.push({ market: set.market, ok: true, ...(await replaceOne(venue, account, set.market, set.orders, call.unit)) });
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === "SERVICE_UNAVAILABLE") throw err;
        results.push({ market: set.market, ok: false, problem: problemOf(err, call.origin) });
      }
    }
    const remaining = fillsRemaining(venue, account, ctx.clock.now());
    return new Reply(200, { results, fillsRemaining: remaining }, { [FILLS_REMAINING_HEADER]: String(remaining) });
  },
});

async function replaceOne(venue: Venue, account: Address, market: string, orders: OrderInput[], unit: CommitUnit | null) {
  const { marketId } = await orderbookMarketAt(venue, market);
  const applied = await submitPlacement(venue, { type: "replaceQuotes", account, marketId, orders: orders.map(toSpec) }, unit);
  return { orders: applied.result.orders.map((v) => orderResult(v, applied.reports)), cancelled: applied.result.cancelled };
}
