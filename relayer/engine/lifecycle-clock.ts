/**
 * The clock's side of markets' lives: advanceLifecycle applies every transition due at `at` (close, creator_mia,
 * the keeper window's end, the challenge window's end, the vote's end, the council's silence) for every market, and
 * the earliest deadline tells the exchange when to run it next (one timer, like GTD expiry).
 */
import { dueTransitions } from "../lifecycle";
import { applySteps, dueAt } from "./lifecycle-apply";
import { quorumOf } from "./lifecycle-commands";
import type { LcMarket } from "./model";
import type { EngineState } from "./state";
import type { AdvanceLifecycleResult } from "./types";

/**
 * Every market with a transition due by `at`, in the order of its earliest due deadline (then id); each market's due
 * transitions are applied in deadline order, each at its own deadline.
 */
export function advanceLifecycle(s: EngineState, at: number): AdvanceLifecycleResult {
  const due: { lm: LcMarket; when: number }[] = [];
  for (const lm of s.lifecycles.values()) {
    const when = dueAt(lm.lc);
    if (when !== undefined && when <= at) due.push({ lm, when });
  }
  due.sort((a, b) => a.when - b.when || (a.lm.id < b.lm.id ? -1 : a.lm.id > b.lm.id ? 1 : 0));
  const first = s.nEvents;
  const settled: AdvanceLifecycleResult["settled"] = [];
  for (const { lm } of due) {
    const r = dueTransitions(lm.lc, at, quorumOf(s, lm));
    if (r.steps.length === 0) continue;
    const settlement = applySteps(s, lm, r.market, r.steps);
    if (settlement) settled.push({ marketId: lm.idStr, settlement });
  }
  return { events: s.events.slice(first, s.nEvents), settled };
}

/** The earliest instant a lifecycle transition falls due, or undefined (recomputed only after a change that needs it). */
export function nextLifecycleDeadline(s: EngineState): number | undefined {
  if (s.lcDirty) {
    let next: number | undefined;
    for (const lm of s.lifecycles.values()) {
      const when = dueAt(lm.lc);
      if (when !== undefined && (next === undefined || when < next)) next = when;
    }
    s.lcNext = next;
    s.lcDirty = false;
  }
  return s.lcNext;
}
