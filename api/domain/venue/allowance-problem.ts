/**
 * The engine's fill-allowance refusal as the API answers it everywhere a command executes fills (/orderbook/* and
 * the committed lane's POST /trade/prepare): 402 FILL_ALLOWANCE_EXHAUSTED with the allowance (ISO instants) and
 * `X-Fills-Remaining`; other refusals take the central mapping (api/platform/errors/engine-rejection.ts).
 */
import type { Accepted, Command, Rejected } from "../../../relayer/engine";
import type { Submitted } from "../../../relayer/exchange/exchange";
import { ApiError } from "../../platform/errors/api-error";
import { accepted } from "../../platform/errors/engine-rejection";

export const FILLS_REMAINING_HEADER = "X-Fills-Remaining";

export function allowanceExhausted(r: Rejected<"FILL_ALLOWANCE_EXHAUSTED">): ApiError {
  const a = r.details.allowance;
  return new ApiError(
    "FILL_ALLOWANCE_EXHAUSTED",
    `${r.message} (the allowance resets at resetsAt; a sell of your whole position in an outcome and cancels are still accepted)`,
    {
      allowance: {
        enabled: a.enabled,
        freePerPeriod: a.freePerPeriod,
        freeUsed: a.freeUsed,
        freeRemaining: a.freeRemaining,
        paidRemaining: a.paidRemaining,
        remaining: a.remaining,
        resetsAt: new Date(a.periodEndsAt).toISOString(),
      },
    },
    { [FILLS_REMAINING_HEADER]: String(a.remaining) },
  );
}

/** `accepted`, with the allowance refusal answered as above. */
export function acceptedFills<C extends Command>(r: Submitted<C>): Accepted<C> {
  if (!r.ok && r.code === "FILL_ALLOWANCE_EXHAUSTED") throw allowanceExhausted(r);
  return accepted(r);
}
