/**
 * Request and response schemas of the order-book operations (docs/trading.md). At the edge sizes, money and prices
 * are decimal strings (prices in basis points of the order's own outcome), instants ISO 8601, except the execution
 * events, which keep the `execution:report` push shape (epoch ms, numeric prices) so one parser serves both.
 */
import { z } from "zod";
import { LOT, MAX_ORDER_SIZE } from "../../../relayer/engine";
import { integerString } from "../../platform/schemas/integer-string";

/** Most orders in one place-order or replace-quotes call (the engine takes 100; one call costs one write). */
export const MAX_ORDERS_PER_CALL = 50;
/** Events per page of POST /orderbook/events. */
export const MAX_EVENTS_PAGE = 500;
export const DEFAULT_EVENTS_PAGE = 100;

export const marketField = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be 0x + 40 hex digits")
  .transform((a) => a.toLowerCase())
  .describe("market address (an ORDERBOOK market of the committed lane, from GET /discover/markets?pricingModel=ORDERBOOK)");

const outcomeField = z.number().int().min(0).max(1).describe("0 = YES, 1 = NO; the price is in this outcome's terms");
const sideField = z.enum(["buy", "sell"]);
const priceField = integerString({ min: 1n, max: 9_999n, maxDigits: 4, what: "priceBps (basis points 1..9999)" }).describe(
  'limit price in basis points of the order\'s outcome, 1..9999 ("4500" = 0.45 PM per share)',
);
const sizeField = integerString({ min: LOT, max: MAX_ORDER_SIZE, multipleOf: LOT, maxDigits: 19, what: "size (a multiple of the lot, 0.01 share)" }).describe(
  `shares in outcome-token base units (1 share = 1000000), a multiple of ${LOT}`,
);
const tifField = z
  .enum(["GTC", "GTD", "IOC", "FOK"])
  .describe("GTC rests until cancelled; GTD until expiresAt; IOC fills what it can now and cancels the rest; FOK fills entirely now or not at all");
const expiresAtField = z.iso.datetime({ offset: true }).describe("GTD only: when the order expires (ISO 8601, in the future)");
const postOnlyField = z.boolean().describe("refuse the order (CONFLICT, reason POST_ONLY_WOULD_CROSS) instead of letting it take liquidity");
export const clientOrderIdField = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,64}$/, "must be 1..64 characters of letters, digits, . _ : -")
  .describe("your id of the order, unique per agent for ever: a retry with the same fields returns the existing order");

const orderShape = {
  outcome: outcomeField,
  side: sideField,
  priceBps: priceField,
  size: sizeField,
  timeInForce: tifField.default("GTC"),
  expiresAt: expiresAtField.optional(),
  postOnly: postOnlyField.default(false),
  clientOrderId: clientOrderIdField.optional(),
};

/** One order as the handlers use it. */
export interface OrderInput {
  outcome: 0 | 1;
  side: "buy" | "sell";
  priceBps: number;
  size: bigint;
  timeInForce: "GTC" | "GTD" | "IOC" | "FOK";
  expiresAt?: number;
  postOnly: boolean;
  clientOrderId?: string;
}

/** Cross-field rules of one order, reported on the field that breaks them. */
function checkOrder(o: { timeInForce: string; expiresAt?: string; postOnly: boolean }, ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  if (o.timeInForce === "GTD" && o.expiresAt === undefined) ctx.addIssue({ code: "custom", path: [...path, "expiresAt"], message: "GTD needs expiresAt" });
  if (o.timeInForce !== "GTD" && o.expiresAt !== undefined)
    ctx.addIssue({ code: "custom", path: [...path, "expiresAt"], message: "expiresAt is only for GTD" });
  if (o.postOnly && (o.timeInForce === "IOC" || o.timeInForce === "FOK"))
    ctx.addIssue({ code: "custom", path: [...path, "postOnly"], message: "postOnly cannot be IOC or FOK" });
}

function toOrderInput(o: z.output<typeof orderObject>): OrderInput {
  return {
    outcome: o.outcome as 0 | 1,
    side: o.side,
    priceBps: Number(o.priceBps),
    size: BigInt(o.size),
    timeInForce: o.timeInForce,
    ...(o.expiresAt !== undefined ? { expiresAt: Date.parse(o.expiresAt) } : {}),
    postOnly: o.postOnly,
    ...(o.clientOrderId !== undefined ? { clientOrderId: o.clientOrderId } : {}),
  };
}

const orderObject = z.strictObject(orderShape);
export const orderSchema = orderObject.superRefine((o, ctx) => checkOrder(o, ctx)).transform(toOrderInput);

/** A list of orders of one market; `min` 1 for placement, 0 for replace-quotes (an empty set cancels the quotes). */
export const ordersField = (min: number) =>
  z
    .array(orderSchema)
    .min(min)
    .max(MAX_ORDERS_PER_CALL)
    .superRefine((orders, ctx) => {
      const seen = new Set<string>();
      orders.forEach((o, i) => {
        if (o.clientOrderId === undefined) return;
        if (seen.has(o.clientOrderId)) ctx.addIssue({ code: "custom", path: [i, "clientOrderId"], message: "duplicate clientOrderId in this call" });
        seen.add(o.clientOrderId);
      });
    });

const SINGLE_FIELDS = Object.keys(orderShape) as (keyof typeof orderShape)[];

/**
 * POST /orderbook/place-order: one order (its fields at the top level) or a batch (`orders`), never both. The batch
 * is all or nothing: every order is validated before any is placed.
 */
export const placeOrderBody = z
  .strictObject({
    market: marketField,
    orders: z
      .array(orderObject)
      .min(1)
      .max(MAX_ORDERS_PER_CALL)
      .optional()
      .describe(`batch form: 1..${MAX_ORDERS_PER_CALL} orders with the single-order fields (without market); all placed or none`),
    outcome: outcomeField.optional(),
    side: sideField.optional(),
    priceBps: priceField.optional(),
    size: sizeField.optional(),
    timeInForce: tifField.optional().describe("default GTC"),
    expiresAt: expiresAtField.optional(),
    postOnly: postOnlyField.optional().describe("default false"),
    clientOrderId: clientOrderIdField.optional(),
  })
  .transform((b, ctx) => {
    const single = Object.fromEntries(SINGLE_FIELDS.filter((k) => b[k] !== undefined).map((k) => [k, b[k]]));
    if (b.orders !== undefined) {
      if (Object.keys(single).length > 0) {
        ctx.addIssue({
          code: "custom",
          path: ["orders"],
          message: `send either orders or the single-order fields, not both (also got ${Object.keys(single).join(", ")})`,
        });
        return z.NEVER;
      }
      const r = ordersField(1).safeParse(b.orders);
      if (!r.success) {
        for (const issue of r.error.issues)
          ctx.addIssue({ code: "custom", path: ["orders", ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))], message: issue.message });
        return z.NEVER;
      }
      return { market: b.market, batch: true, orders: r.data };
    }
    const r = orderSchema.safeParse(single);
    if (!r.success) {
      for (const issue of r.error.issues)
        ctx.addIssue({ code: "custom", path: issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)), message: issue.message });
      return z.NEVER;
    }
    return { market: b.market, batch: false, orders: [r.data] };
  });

/** An order of the calling agent: by the exchange's id or by the agent's clientOrderId. */
export const orderRefBody = z
  .strictObject({
    orderId: z
      .string()
      .regex(/^o-\d{1,20}$/, "must be an order id (o-<n>)")
      .optional(),
    clientOrderId: clientOrderIdField.optional(),
  })
  .refine((b) => (b.orderId === undefined) !== (b.clientOrderId === undefined), {
    message: "send exactly one of orderId and clientOrderId",
    path: ["orderId"],
  });

// ---------------------------------------------------------------- responses

const iso = z.string().describe("ISO 8601");
const amount = z.string().regex(/^\d+$/);

export const fillSchema = z.object({
  tradeId: z.string(),
  priceBps: z.string().describe("execution price in the order's own outcome (the maker's price; a taker keeps any improvement)"),
  size: amount.describe("shares filled, base units"),
  fee: amount.describe("PM base units; takers pay the market's taker fee (docs/fees.md), makers 0"),
  liquidity: z.enum(["maker", "taker"]),
  matchKind: z.enum(["TAKER_BUYS", "TAKER_SELLS", "MINT", "MERGE"]),
  seq: z.number().int().describe("the execution report's per-agent seq"),
  at: iso,
});

export const ORDER_STATUSES = ["open", "partially_filled", "filled", "cancelled", "expired"] as const;

export const orderResultSchema = z.object({
  orderId: z.string(),
  clientOrderId: z.string().nullable(),
  market: z.string().describe("market address"),
  marketId: z.string().describe("committed-lane market id (decimal)"),
  outcome: z.number().int(),
  side: z.enum(["buy", "sell"]),
  priceBps: z.string(),
  size: amount,
  filledSize: amount,
  remainingSize: amount.describe("still on the book; 0 once filled, cancelled or expired"),
  status: z.enum(ORDER_STATUSES),
  timeInForce: z.enum(["GTC", "GTD", "IOC", "FOK"]),
  postOnly: z.boolean(),
  expiresAt: iso.nullable(),
  reserved: amount.describe("locked while the order rests: PM for a buy, shares for a sell"),
  cancelReason: z
    .string()
    .optional()
    .describe("when this answer saw the order cancelled: user, cancel_all, replaced, self_trade_prevention, ioc_remainder, fok_not_fillable, market_closed"),
  fills: z.array(fillSchema).describe("the fills this request executed (place-order, replace-quotes); [] elsewhere: see filledSize and POST /orderbook/events"),
  createdAt: iso,
  updatedAt: iso,
});
export type OrderResult = z.input<typeof orderResultSchema>;

export const placementSchema = z.object({
  orders: z.array(orderResultSchema),
  fillsRemaining: z.number().int().describe("the agent's fill allowance after this call (also the X-Fills-Remaining header)"),
});

export const executionEventSchema = z.looseObject({
  account: z.string(),
  seq: z.number().int(),
  at: z.number().int().describe("epoch ms"),
  kind: z.enum(["new", "fill", "cancelled", "expired"]),
  orderId: z.string(),
  marketId: z.string(),
  market: z.string().describe("market address"),
  status: z.enum(ORDER_STATUSES),
});

export const balanceSchema = z.object({
  asset: z.enum(["PM", "OUTCOME"]),
  assetId: z.string().describe("ledger asset id: 0 = PM, (marketId << 8) | outcome for outcome tokens"),
  market: z.string().optional(),
  marketId: z.string().optional(),
  outcome: z.number().int().optional(),
  total: amount,
  reserved: amount,
  available: amount,
});

/**
 * POST /orderbook/place-limit-order (MCP svc_place_limit_order): exactly one resting limit order, GTC or GTD, for
 * clients (and models) that want the narrow form: no batch field, no IOC/FOK.
 */
export const placeLimitOrderBody = z
  .strictObject({
    market: marketField,
    ...orderShape,
    timeInForce: z.enum(["GTC", "GTD"]).default("GTC").describe("GTC rests until cancelled; GTD until expiresAt"),
  })
  .superRefine((o, ctx) => checkOrder(o, ctx))
  .transform((o) => ({ market: o.market, batch: false as const, orders: [toOrderInput(o)] }));
