/** A committed market's mutable status fields and their rollback record. */
import type { Market } from "./model";
import type { EngineState } from "./state";

/** The closeAt of a market without a lifecycle: it never closes by the clock. */
export const NO_CLOSE = Number.MAX_SAFE_INTEGER;

/** Records a market's status, outcome and closeAt for rollback, once per command. */
export function saveMarket(s: EngineState, m: Market): void {
  if (m.ep === s.u.ep) return;
  m.ep = s.u.ep;
  const { status, winningOutcome, closeAt } = m;
  s.u.fn(() => {
    m.status = status;
    m.winningOutcome = winningOutcome;
    m.closeAt = closeAt;
  });
}
