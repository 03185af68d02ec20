/**
 * The clock-driven transitions a time advance runs (time-advance.ts), each where it would run in real time:
 *   - GTD expiry: the exchange's `expireOrders` command for the resting orders due (it journals and reports `expired`);
 *   - the market lifecycle: the engine's `advanceLifecycle` command when `Engine.nextLifecycleDeadline()` is due
 *     (close, creator MIA, challenge end, vote deadline, council timeout; docs/lifecycle.md).
 */
import type { Exchange } from "../../../relayer/exchange/exchange";
import type { DueSource } from "./time-advance";

export function gtdExpirySource(exchange: () => Exchange): DueSource {
  return {
    name: "gtd-expiry",
    nextDue: () => exchange().engine.nextExpiry(),
    async run(at) {
      return (await exchange().expireDue()) ? [`GTD orders due by ${new Date(at).toISOString()} expired`] : [];
    },
  };
}

/**
 * LIFECYCLE HOOK: the lifecycle's engine command and its next deadline (engine `advanceLifecycle`,
 * `Engine.nextLifecycleDeadline()`). Until the engine has them this source has nothing due.
 */
export function lifecycleSource(exchange: () => Exchange): DueSource {
  const lifecycle = () => exchange().engine as unknown as { nextLifecycleDeadline?: () => number | undefined };
  return {
    name: "market-lifecycle",
    nextDue: () => lifecycle().nextLifecycleDeadline?.(),
    async run() {
      return [];
    },
  };
}
