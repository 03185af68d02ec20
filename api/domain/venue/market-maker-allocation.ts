/**
 * The allocation of a market-maker agent on this venue: the `market-maker` rate tier (higher ceilings, no extra
 * authority; spec "rateLimits") and a standing balance of purchased fill credits, which never expire or reset and sit
 * on top of the weekly free allowance. A maker fills on every taker that crosses its quotes; without credits the
 * demo maker of `npm start` would stop quoting (402) after its free allowance.
 */
import type { Address } from "viem";
import type { Database } from "../../../relayer/db/client";
import type { Clock } from "../../../relayer/clock";
import { accepted } from "../../platform/errors/engine-rejection";
import type { Venue } from "./types";

export const MARKET_MAKER_FILL_CREDITS = 100_000;

export async function grantMarketMakerAllocation(db: Database, clock: Clock, venue: Venue, agent: { agentId: string; ledgerAccount: string }): Promise<void> {
  await db.query(`UPDATE api_agents SET rate_tier = 'market-maker' WHERE id = $1`, [agent.agentId]);
  const [row] = await db.query<{ created_at: string | number }>(`SELECT created_at FROM api_agents WHERE id = $1`, [agent.agentId]);
  const account = await venue.openAccount(agent.ledgerAccount as Address, Number(row!.created_at));
  // Top up to the standing balance (a restart does not stack credits).
  const paid = venue.exchange.engine.allowance(account, clock.now()).paidRemaining;
  if (paid < MARKET_MAKER_FILL_CREDITS) accepted(await venue.exchange.submit({ type: "addFillCredits", account, fills: MARKET_MAKER_FILL_CREDITS - paid }));
}
