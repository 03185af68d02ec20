/** Fill allowances read from the engine, which counts them (GET /me `fills`, GET /fills/allowance). */
import type { Address } from "viem";
import type { Exchange } from "../../../relayer/exchange/exchange";
import { allowanceOfCounts, type AllowanceSource } from "../fills/allowance-source";

export function engineAllowanceSource(exchange: Exchange): AllowanceSource {
  return {
    async allowanceOf(who, now) {
      const a = exchange.engine.allowance(who.account.toLowerCase() as Address, now);
      // The engine anchors periods at the signup instant it was given; an account it has not opened yet reports
      // zero counts, which is what the agent will start with.
      return allowanceOfCounts(who, now, { enabled: a.enabled, freePerPeriod: a.freePerPeriod, freeUsed: a.freeUsed, paidRemaining: a.paidRemaining });
    },
  };
}
