/**
 * x402 over MCP for the operations marked `x402` in the registry (POST /pm/buy), after x402's MCP transport (v2):
 * - the payment goes in as the tool argument `payment` (x402's PaymentPayload object, or its base64 JSON as the REST
 *   PAYMENT-SIGNATURE header carries it) or, as x402 MCP clients send it, in `params._meta["x402/payment"]`; the
 *   adapter hands it to the REST operation as the PAYMENT-SIGNATURE header, so verification and settlement are REST's;
 * - a 402 is a tool error (`isError: true`) whose structured content is the 402 problem, whose members are also x402's
 *   PaymentRequired (`x402Version`, `resource`, `accepts`, `error`): what x402 MCP clients read first;
 * - a paid answer carries x402's SettleResponse in `_meta["x402/payment-response"]` (REST: PAYMENT-RESPONSE).
 * docs/mcp.md "Paying over MCP".
 */
import { z } from "zod";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import type { FieldError } from "../../platform/errors/invalid-payload";
import { PAYMENT_ARGUMENT, PAYMENT_META, PAYMENT_RESPONSE_HEADER, PAYMENT_RESPONSE_META, X402_VERSION } from "../../domain/pm/x402/headers";
/** Far above a real EIP-3009 payload (about 1.5 KB of base64): the value becomes a header of the internal request. */
const MAX_PAYMENT_CHARS = 16_384;

const jsonObject = z.record(z.string(), z.unknown());

/** x402's PaymentPayload (version 2), as far as the adapter checks it; the operation checks the rest. */
const paymentPayloadSchema = z.looseObject({
  x402Version: z.literal(X402_VERSION),
  accepted: jsonObject.describe("the entry of `accepts` being paid"),
  payload: jsonObject.describe("exact EVM: {signature, authorization{from,to,value,validAfter,validBefore,nonce}}"),
  resource: jsonObject.optional(),
});

/** The same payload base64-JSON, as the REST header carries it (x402's own base64 alphabet check). */
const paymentTextSchema = z
  .string()
  .min(1)
  .max(MAX_PAYMENT_CHARS)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, "must be base64 (the PAYMENT-SIGNATURE header value)");

/** The `payment` argument. */
export const paymentArgumentSchema = z
  .union([
    paymentPayloadSchema.describe("x402 PaymentPayload object"),
    paymentTextSchema.describe("the same PaymentPayload, base64 JSON (the REST PAYMENT-SIGNATURE / X-PAYMENT header value)"),
  ])
  .optional()
  .describe(
    "x402 payment (x402 version 2, scheme exact, EIP-3009). Omit it first: the tool error's structuredContent is x402's PaymentRequired (`accepts`); sign one of `accepts` and call again with the same idempotencyKey and this argument. `_meta[\"x402/payment\"]` is accepted instead.",
  );

/** x402's PaymentRequired as it comes back in a 402 tool error's structured content (the problem's members). */
export const paymentRequiredSchema = z
  .looseObject({
    x402Version: z.number().int(),
    error: z.string().optional().describe("why the last payment was refused (x402 reason), absent on the first 402"),
    resource: z.looseObject({ url: z.string() }),
    accepts: z.array(z.looseObject({ scheme: z.string(), network: z.string(), amount: z.string(), asset: z.string(), payTo: z.string() })),
  })
  .describe("402 PAYMENT_REQUIRED (a tool error): the RFC 9457 problem, whose members are also x402's PaymentRequired");

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The PAYMENT-SIGNATURE value of a call (undefined when unpaid), or the argument errors: a payment given both ways,
 * or one that is neither a PaymentPayload object nor base64 text.
 */
export function paymentHeaderOf(args: Record<string, unknown>, meta: unknown): { header?: string; errors: FieldError[] } {
  const fromArgs = args[PAYMENT_ARGUMENT];
  const fromMeta = isObject(meta) ? meta[PAYMENT_META] : undefined;
  if (fromArgs !== undefined && fromMeta !== undefined)
    return { errors: [{ location: "body", field: PAYMENT_ARGUMENT, message: `give the payment once: the argument or _meta["${PAYMENT_META}"], not both` }] };
  const given = fromArgs ?? fromMeta;
  if (given === undefined || given === null) return { errors: [] };
  const schema = typeof given === "string" ? paymentTextSchema : isObject(given) ? paymentPayloadSchema : null;
  const parsed = schema?.safeParse(given);
  if (!parsed?.success) {
    const message = !schema
      ? "must be the x402 PaymentPayload object or its base64 text"
      : schema === paymentTextSchema
        ? (parsed?.error.issues[0]?.message ?? "invalid")
        : "must be an x402 version 2 PaymentPayload {x402Version, accepted, payload}";
    return { errors: [{ location: "body", field: PAYMENT_ARGUMENT, message }] };
  }
  const header = typeof given === "string" ? given : encodePaymentSignatureHeader(given as unknown as PaymentPayload);
  if (header.length > MAX_PAYMENT_CHARS)
    return { errors: [{ location: "body", field: PAYMENT_ARGUMENT, message: `at most ${MAX_PAYMENT_CHARS} characters as base64` }] };
  return { header, errors: [] };
}

/** The x402 parts of a tool result: the 402's PaymentRequired as structured content, the settlement in `_meta`. */
export function withX402(result: CallToolResult, res: Response, json: unknown): CallToolResult {
  if (res.status === 402 && isObject(json)) result.structuredContent = json;
  const settlement = res.headers.get(PAYMENT_RESPONSE_HEADER);
  if (settlement) result._meta = { ...result._meta, [PAYMENT_RESPONSE_META]: decodePaymentResponseHeader(settlement) };
  return result;
}
