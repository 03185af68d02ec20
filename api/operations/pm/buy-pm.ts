import { defineOperation, Reply, TRADE_EXECUTE_ACCESS } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { exactRequirements } from "../../domain/pm/x402/exact-evm";
import { decodePayment, PAYMENT_ARGUMENT, paymentHeaderOf, paymentResponseHeader, PAYMENT_RESPONSE_HEADER } from "../../domain/pm/x402/headers";
import { bundleOf, PM_BUNDLES, usdcPrice } from "../../domain/pm/bundles";
import { buyBundle, paymentRequired, PM_BUY_PATH } from "./purchase";
import { pmPurchaseBody, pmPurchaseResponse } from "./schemas";
import { assertRegionAllowed } from "../../domain/pm/region-rule";

/**
 * POST /pm/buy: buys one PM bundle, paid over x402 with USDC (docs/pm-purchase.md). Without a payment header it
 * answers 402 with the payment requirements; with a valid one it settles the transfer on chain, then credits the
 * bundle's PM and fill credits, and answers the purchase with the settlement in PAYMENT-RESPONSE. The MCP tool
 * `svc_buy_pm` is the same call: its `payment` argument arrives here as PAYMENT-SIGNATURE (api/transports/mcp/x402.ts).
 */
export const buyPm = defineOperation({
  id: "buyPm",
  method: "POST",
  path: PM_BUY_PATH,
  summary: "Buy a PM bundle with USDC over x402 (402 first, then pay and retry)",
  description:
    "Body `pm`: a bundle of GET /pm/bundles. The first call answers 402 PAYMENT_REQUIRED with the x402 requirements (also base64 in PAYMENT-REQUIRED); sign the EIP-3009 authorization and retry with the same Idempotency-Key and a PAYMENT-SIGNATURE header. MCP: the tool error's structuredContent is the PaymentRequired, and the payment goes in the `payment` argument. See docs/pm-purchase.md.",
  category: "pm",
  ...TRADE_EXECUTE_ACCESS,
  errors: ["PURCHASE_NOT_A_BUNDLE", "PAYMENT_REQUIRED", "WALLET_REQUIRED", "SERVICE_UNAVAILABLE_IN_REGION", "SERVICE_UNAVAILABLE"],
  request: { body: pmPurchaseBody },
  response: pmPurchaseResponse,
  mcpTool: "svc_buy_pm",
  x402: true,
  async handler(ctx, { body }, call) {
    assertRegionAllowed(ctx.config, call.header);
    if (!call.principal.walletAddress)
      throw new ApiError("WALLET_REQUIRED", "PM is credited to a wallet's ledger account: bind one with POST /agents/me/bind-wallet");
    const bundle = bundleOf(BigInt(body.pm));
    if (!bundle) {
      throw new ApiError("PURCHASE_NOT_A_BUNDLE", `${body.pm} PM is not a bundle; buy one of ${PM_BUNDLES.map((b) => b.pm).join(", ")} PM (GET /pm/bundles)`, {
        bundles: PM_BUNDLES.map((b) => b.pm),
      });
    }
    const { venue } = call.services;
    const rt = call.services.x402();
    const requirements = exactRequirements({ chainId: rt.chainId, asset: rt.asset, payTo: rt.payTo, amount: usdcPrice(bundle), domain: await rt.domain() });
    const raw = paymentHeaderOf(call.header);
    if (raw === undefined) {
      throw paymentRequired(
        call,
        requirements,
        `${bundle.pm} PM costs ${usdcPrice(bundle)} USDC base units: sign the requirements (PAYMENT-REQUIRED, x402 exact) and retry with PAYMENT-SIGNATURE`,
      );
    }
    const paid = await buyBundle(ctx, call, venue, rt, bundle, requirements, decodePayment(raw, call.surface === "mcp" ? PAYMENT_ARGUMENT : undefined));
    return new Reply(200, paid.body, paid.settlement ? { [PAYMENT_RESPONSE_HEADER]: paymentResponseHeader(paid.settlement) } : {});
  },
});
