/**
 * One PM purchase over x402 (docs/pm-purchase.md): verify the EIP-3009 authorization, claim it (pm_purchases), settle
 * it on chain, and only after the receipt credit the bundle through the exchange's journaled commands (CREDIT reason
 * PURCHASE, then the bundle's permanent fill credits). Every step is recorded on the purchase row, so a retry after a
 * failure resumes where the first attempt stopped: it never pays twice (the facilitator finds an earlier transfer)
 * and never credits twice (the journal is searched for the purchase's commands).
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Address } from "viem";
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from "@x402/core/types";
import type { ServiceContext } from "../../context";
import type { CallContext } from "../../registry/types";
import { COLLATERAL_ASSET } from "../../../decoder/assets";
import { ApiError } from "../../platform/errors/api-error";
import { accepted } from "../../platform/errors/engine-rejection";
import type { Venue } from "../../domain/venue/types";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { exactEip3009PayloadSchema } from "../../domain/pm/x402/exact-evm";
import { paymentRequiredHeader, X402_VERSION, PAYMENT_REQUIRED_HEADER } from "../../domain/pm/x402/headers";
import { chainUnavailable, type X402Runtime } from "../../domain/pm/x402/runtime";
import { bundleView, fillsOf, pmBaseUnits, type PmBundle } from "../../domain/pm/bundles";
import type { pmPurchaseResponse } from "./schemas";
import { claimPurchase, dropUnsettled, findPurchase, getPurchase, journaledCommands, markCredited, markSettled, type PurchaseRow } from "./purchase-store";

export const PM_BUY_PATH = "/pm/buy";

/** The 402 answer: an RFC 9457 problem whose members are also x402's PaymentRequired, which PAYMENT-REQUIRED repeats. */
export function paymentRequired(call: CallContext, requirements: PaymentRequirements, detail: string, error?: { reason?: string; message?: string }): ApiError {
  const body: PaymentRequired = {
    x402Version: X402_VERSION,
    ...(error?.reason ? { error: error.reason } : {}),
    resource: { url: `${call.origin}${API_BASE_PATH}${PM_BUY_PATH}`, description: "PM bundle (play money; no cash value)", mimeType: "application/json" },
    accepts: [requirements],
  };
  const full = error?.message ? `${detail}: ${error.message}` : detail;
  return new ApiError("PAYMENT_REQUIRED", full, { ...body }, { [PAYMENT_REQUIRED_HEADER]: paymentRequiredHeader(body) });
}

export type PurchaseBody = z.input<typeof pmPurchaseResponse>;

export interface Paid {
  body: PurchaseBody;
  settlement: SettleResponse | null;
}

/** Purchases run one at a time per row (a resumed attempt waits for a running one; one service per database). */
const running = new Map<string, Promise<unknown>>();
async function exclusively<T>(id: string, fn: () => Promise<T>): Promise<T> {
  const before = running.get(id) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(fn);
  const tail = mine.catch(() => undefined);
  running.set(id, tail);
  try {
    return await mine;
  } finally {
    if (running.get(id) === tail) running.delete(id);
  }
}

export async function buyBundle(
  ctx: ServiceContext,
  call: CallContext<"api-key-execute">,
  venue: Venue,
  rt: X402Runtime,
  bundle: PmBundle,
  requirements: PaymentRequirements,
  payment: PaymentPayload,
): Promise<Paid> {
  const parsed = exactEip3009PayloadSchema.safeParse(payment.payload);
  if (!parsed.success)
    throw paymentRequired(call, requirements, "the payment is refused", {
      reason: "invalid_exact_evm_failed_to_parse_signature",
      message: "payload must be {signature, authorization{from,to,value,validAfter,validBefore,nonce}}",
    });
  const auth = parsed.data.authorization;
  const key = { chainId: rt.chainId, asset: rt.asset.toLowerCase(), payer: auth.from.toLowerCase(), nonce: auth.nonce.toLowerCase() };
  const principal = call.principal;
  const nonceUsed = () =>
    paymentRequired(call, requirements, "the payment is refused", {
      reason: "invalid_exact_evm_nonce_already_used",
      message: `nonce ${key.nonce} of ${key.payer} already paid for a purchase; sign a new authorization`,
    });

  let row = await findPurchase(ctx.db, key);
  if (row && (row.status === "credited" || row.agentId !== principal.agentId || row.amount !== BigInt(requirements.amount))) throw nonceUsed();
  if (!row) {
    let verdict: Awaited<ReturnType<typeof rt.facilitator.verify>>;
    try {
      verdict = await rt.facilitator.verify(payment, requirements);
    } catch (err) {
      throw chainUnavailable(err);
    }
    if (!verdict.isValid)
      throw paymentRequired(call, requirements, "the payment is refused", { reason: verdict.invalidReason, message: verdict.invalidMessage });
    const account = (await venue.accountOf(principal)) as string;
    const fresh = {
      id: randomUUID(),
      agentId: principal.agentId,
      account,
      ...key,
      payTo: rt.payTo.toLowerCase(),
      amount: BigInt(requirements.amount),
      pm: pmBaseUnits(bundle),
      fills: fillsOf(bundle),
      journalFloor: venue.exchange.nextSeq,
      createdAt: ctx.clock.now(),
    };
    if (!(await claimPurchase(ctx.db, fresh))) throw nonceUsed();
    row = (await getPurchase(ctx.db, fresh.id))!;
  }
  const id = row.id;
  return exclusively(id, async () => {
    let current = (await getPurchase(ctx.db, id))!;
    if (!current || current.status === "credited") throw nonceUsed(); // a concurrent request finished it
    let settlement: SettleResponse | null = null;
    if (current.status === "settling") {
      try {
        settlement = await rt.facilitator.settle(payment, requirements);
      } catch (err) {
        throw chainUnavailable(err); // the row stays: a retry finds the transfer if it happened
      }
      if (!settlement.success) {
        await dropUnsettled(ctx.db, id);
        throw paymentRequired(call, requirements, "the payment could not be settled; nothing was paid or credited", {
          reason: settlement.errorReason,
          message: settlement.errorMessage,
        });
      }
      await markSettled(ctx.db, id, settlement.transaction.toLowerCase(), ctx.clock.now());
      current = (await getPurchase(ctx.db, id))!;
    }
    const body = await credit(ctx, venue, current, bundle);
    await markCredited(ctx.db, id, body as Record<string, unknown>, ctx.clock.now());
    settlement ??= { success: true, payer: auth.from, transaction: current.txHash!, network: requirements.network, amount: requirements.amount };
    return { body, settlement };
  });
}

/** Credits the settled purchase once: each command is skipped when the journal already holds it. */
async function credit(ctx: ServiceContext, venue: Venue, p: PurchaseRow, bundle: PmBundle): Promise<PurchaseBody> {
  const done = await journaledCommands(ctx.db, p);
  const account = p.account as Address;
  // `purchase` rides along in the journaled command JSON (the engine ignores it): the resume marker.
  if (!done.has("credit")) accepted(await venue.exchange.submit({ type: "credit", account, amount: p.pm, reason: "PURCHASE", purchase: p.id }));
  if (p.fills > 0 && !done.has("addFillCredits")) accepted(await venue.exchange.submit({ type: "addFillCredits", account, fills: p.fills, purchase: p.id }));
  const now = ctx.clock.now();
  const engine = venue.exchange.engine;
  return {
    purchaseId: p.id,
    status: "credited" as const,
    bundle: bundleView(bundle),
    pmCredited: p.pm.toString(),
    fillsCredited: p.fills,
    pmBalance: engine.balance(account, COLLATERAL_ASSET).total.toString(),
    fillsRemaining: engine.allowance(account, now).remaining,
    payment: {
      scheme: "exact" as const,
      network: `eip155:${p.chainId}`,
      asset: p.asset,
      payTo: p.payTo,
      payer: p.payer,
      amount: p.amount.toString(),
      nonce: p.nonce,
      transaction: p.txHash!,
    },
    purchasedAt: new Date(now).toISOString(),
  };
}
