/**
 * Shared pieces of the resolution writes (docs/resolution.md "The API"): who may call them, the market reference of
 * every body, and the answer every accepted act gives (the market's lifecycle after it, and the transitions it made).
 */
import { z } from "zod";
import type { Command, LifecycleCommandResult } from "../../../relayer/engine";
import type { ServiceContext } from "../../context";
import { accepted } from "../../platform/errors/engine-rejection";
import { TRADE_EXECUTE_ACCESS } from "../../registry/types";
import { lifecycleOut, lifecycleSchema, marketLifecycleAt, type MarketWithLifecycle } from "../../domain/lifecycle/market-lifecycle";
import type { Services } from "../../services";
import { chainIdInput } from "../../platform/schemas/chain-id";

/** Execute tier, trade:execute, one write, Idempotency-Key required: a retried act replays, never acts twice. */
export const RESOLVE_WRITE = { category: "resolution", ...TRADE_EXECUTE_ACCESS } as const;

export const RESOLVE_ERRORS = ["MARKET_NOT_FOUND", "CONFLICT", "FORBIDDEN", "INSUFFICIENT_BALANCE", "SERVICE_UNAVAILABLE"] as const;

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be 0x + 40 hex digits")
  .transform((a) => a.toLowerCase());
/** Every resolution body names its market. */
export const marketRef = {
  market: address.describe("the market's address"),
  chainId: chainIdInput.optional().describe("default: the service's chain"),
};
export const outcomeOrVoid = z.union([z.number().int().min(0).max(254), z.literal("void")]);

export const transitionSchema = z.object({ from: z.string().nullable(), to: z.string(), at: z.string(), reason: z.string() });

export const lifecycleAnswer = z.object({
  market: lifecycleSchema,
  transitions: z.array(transitionSchema).describe("every state change the call made, clock transitions that fell due first included"),
});

export async function lifecycleTarget(ctx: ServiceContext, services: Services, body: { market: string; chainId?: number }): Promise<MarketWithLifecycle> {
  return marketLifecycleAt(ctx, services.venue.exchange.engine, body.market, body.chainId);
}

/** Submits a lifecycle command; a refusal becomes its problem (REJECTION_PROBLEMS), and nothing moved. */
export async function submitLifecycle<C extends Command>(services: Services, command: C): Promise<ReturnType<typeof accepted<C>>> {
  return accepted(await services.venue.exchange.submit(command));
}

export function answerOf(target: MarketWithLifecycle, r: LifecycleCommandResult) {
  return {
    market: lifecycleOut({ ...target, lifecycle: r.lifecycle }),
    transitions: r.events.map((e) => ({ from: e.from, to: e.to, at: new Date(e.at).toISOString(), reason: e.reason })),
  };
}
