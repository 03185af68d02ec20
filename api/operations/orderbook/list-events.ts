import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { READ, venueAndAccount } from "./common";
import { DEFAULT_EVENTS_PAGE, executionEventSchema, MAX_EVENTS_PAGE } from "./schemas";
import { eventOf } from "./serialize";

/**
 * POST /orderbook/events: the agent's committed execution reports from `fromSeq` (inclusive), ascending, gap-free:
 * the reconciliation of the `execution:report` stream (persist seq; on a gap ask from last + 1).
 */
export const listOrderEvents = defineOperation({
  id: "listOrderEvents",
  method: "POST",
  path: "/orderbook/events",
  summary: "List the agent's order execution events from a sequence number (gap repair of execution:report)",
  description: `Events are the execution:report payloads (plus \`market\`), seq gap-free per agent from 1. Page with \`nextSeq\` while \`hasMore\`. limit 1..${MAX_EVENTS_PAGE} (default ${DEFAULT_EVENTS_PAGE}). Changes nothing. See docs/trading.md.`,
  ...READ,
  errors: ["SERVICE_UNAVAILABLE"],
  request: {
    body: z.strictObject({
      fromSeq: z.number().int().min(0).max(2_147_483_647).default(0).describe("first seq wanted, inclusive (your last processed seq + 1)"),
      limit: z.number().int().min(1).max(MAX_EVENTS_PAGE).default(DEFAULT_EVENTS_PAGE),
    }),
  },
  response: z.object({
    events: z.array(executionEventSchema),
    nextSeq: z.number().int().describe("fromSeq of the next page (last seq + 1; fromSeq when empty)"),
    hasMore: z.boolean(),
  }),
  mcpTool: "svc_list_order_events",
  async handler(_ctx, { body }, call) {
    const { venue, account } = await venueAndAccount(call.services, call.principal);
    const reports = await venue.exchange.reportsOf(account, body.fromSeq, body.limit + 1);
    const page = reports.slice(0, body.limit);
    const last = page.at(-1);
    return { events: page.map(eventOf), nextSeq: last ? last.seq + 1 : Math.max(body.fromSeq, 1), hasMore: reports.length > body.limit };
  },
});
