/**
 * The x402 HTTP transport (protocol v2, as @x402/core implements it): the client's payment travels base64-JSON in
 * `PAYMENT-SIGNATURE` (the v1 name `X-PAYMENT` is accepted too), a 402 carries the requirements base64-JSON in
 * `PAYMENT-REQUIRED`, and a paid answer carries the settlement in `PAYMENT-RESPONSE`. An MCP tool call's payment
 * reaches the operation in the same header (api/transports/mcp/x402.ts).
 */
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, SettleResponse } from "@x402/core/types";
import { ApiError } from "../../../platform/errors/api-error";

export const X402_VERSION = 2;
export const PAYMENT_SIGNATURE_HEADER = "PAYMENT-SIGNATURE";
export const LEGACY_PAYMENT_HEADER = "X-PAYMENT";
export const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
export const PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";
/** Over MCP (x402's MCP transport; api/transports/mcp/x402.ts): the tool argument and the `_meta` keys. */
export const PAYMENT_ARGUMENT = "payment";
export const PAYMENT_META = "x402/payment";
export const PAYMENT_RESPONSE_META = "x402/payment-response";

/** The raw payment header of a request, if any. */
export function paymentHeaderOf(header: ((name: string) => string | undefined) | undefined): string | undefined {
  if (!header) return undefined;
  return header(PAYMENT_SIGNATURE_HEADER) ?? header(LEGACY_PAYMENT_HEADER);
}

/**
 * Decodes the payment header; a header that is not base64 JSON of a v2 payload is INVALID_PAYLOAD (nothing paid),
 * naming the header, or `argument` when the payment came as a tool argument (MCP) that the adapter sent on in it.
 */
export function decodePayment(raw: string, argument?: string): PaymentPayload {
  const where = argument ? { field: argument, location: "body" } : { field: PAYMENT_SIGNATURE_HEADER, location: "header" };
  const named = argument ? `\`${argument}\`` : `${PAYMENT_SIGNATURE_HEADER} header`;
  let payload: PaymentPayload;
  try {
    payload = decodePaymentSignatureHeader(raw);
  } catch (err) {
    throw new ApiError("INVALID_PAYLOAD", `the ${named} is not base64 JSON of an x402 payment payload`, where, {}, { cause: err });
  }
  if (
    payload?.x402Version !== X402_VERSION ||
    typeof payload.accepted !== "object" ||
    payload.accepted === null ||
    typeof payload.payload !== "object" ||
    payload.payload === null
  ) {
    throw new ApiError("INVALID_PAYLOAD", `the ${named} must carry an x402 version ${X402_VERSION} payload with \`accepted\` and \`payload\``, where);
  }
  return payload;
}

export const paymentRequiredHeader = (body: PaymentRequired): string => encodePaymentRequiredHeader(body);
export const paymentResponseHeader = (settlement: SettleResponse): string => encodePaymentResponseHeader(settlement);
