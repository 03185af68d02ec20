import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { MARKET_STATES } from "../../domain/protocol/market-states";
import { listMarkets } from "../../domain/markets/list-query";
import { decodeCursor, encodeCursor } from "../../domain/markets/cursor";
import { marketRow, marketRowSchema } from "../../domain/markets/market-view";
import { chainIdQuery, evmAddress, PUBLIC_READ } from "./common";

export const ELECTION_OFFICES = [
  "senate",
  "house",
  "governor",
  "legislature",
  "provincial_legislature",
  "mayor",
  "president",
  "referendum",
  "council",
] as const;

const query = z
  .strictObject({
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
    /** Open enum: unseen values are tolerated (and match nothing). */
    category: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,39}$/, "must be a MarketCategory (upper case)")
      .optional(),
    marketState: z.enum(MARKET_STATES).optional(),
    chainId: chainIdQuery.optional(),
    address: evmAddress.optional(),
    creator: evmAddress.optional(),
    sourceConditionId: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x + 64 hex digits")
      .transform((s) => s.toLowerCase())
      .optional(),
    sourceTokenId: z
      .string()
      .regex(/^\d{1,78}$/, "must be a decimal string of 1..78 digits")
      .optional(),
    search: z.string().min(2).max(200).optional(),
    sort: z.enum(["new", "volume_24h", "closing_soon", "resolved_newest"]).default("new"),
    cursor: z.string().min(1).max(256).optional(),
    pricingModel: z.enum(["automated", "ORDERBOOK"]).optional(),
    electionRegion: z.enum(["US", "CA", "WORLD"]).optional(),
    electionPlace: z
      .string()
      .regex(/^([A-Z]{2}|(US|CA)-[A-Z]{2})$/, "must be two upper-case letters or US-XX / CA-XX")
      .optional(),
    electionOffice: z.enum(ELECTION_OFFICES).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.cursor !== undefined && q.sort !== "new") ctx.addIssue({ code: "custom", path: ["cursor"], message: "a cursor is valid only with sort new" });
  });

const sharedResponses = new WeakMap<object, { markets: ReturnType<typeof marketRow>[]; nextCursor: string | null; pageSize: number }>();

/** GET /discover/markets: the catalog of both settlement lanes, filtered, sorted and paged. */
export const listDiscoverMarkets = defineOperation({
  id: "listMarkets",
  method: "GET",
  path: "/discover/markets",
  summary: "List markets with filters, sorts, search and a keyset cursor",
  description: "Without marketState, resolved and void markets are left out (sort resolved_newest lists resolved ones). See docs/discovery.md.",
  ...PUBLIC_READ,
  request: { query },
  response: z.object({ markets: z.array(marketRowSchema), nextCursor: z.string().nullable(), pageSize: z.number().int() }),
  mcpTool: "svc_list_markets",
  async handler(ctx, { query: q }) {
    const { cursor, ...filters } = q;
    const page = await listMarkets(ctx.db, { ...filters, cursor: cursor === undefined ? undefined : decodeCursor(cursor) }, ctx.clock.now());
    const build = () => ({
      markets: page.markets.map((m) => marketRow(m, { sourceTokenId: q.sourceTokenId })),
      nextCursor: page.next ? encodeCursor(page.next) : null,
      pageSize: q.pageSize,
    });
    // Rows with a sourceTokenId are built per request; otherwise the page (shared while the catalog cache holds it,
    // and the query, pageSize included, is its cache key) gets one frozen response, checked and serialized once.
    if (q.sourceTokenId !== undefined) return build();
    let shared = sharedResponses.get(page);
    if (!shared) sharedResponses.set(page, (shared = Object.freeze(build())));
    return shared;
  },
});
