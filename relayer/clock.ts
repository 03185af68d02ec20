/** The one source of time outside the pure engine. Inject a `manualClock` in tests instead of sleeping. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told; for tests of windows and deadlines. */
export function manualClock(start = 1_767_225_600_000): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

/**
 * A clock that reads `base` plus an offset that only grows: the service's clock on a local chain, which an operator
 * moves forward with `POST /admin/v1/time/advance` (docs/dev-chain.md). Never backwards: `moveTo` an earlier instant
 * does nothing.
 */
export interface MovableClock extends Clock {
  /** Milliseconds this clock is ahead of its base. */
  offsetMs(): number;
  /** Moves the clock forward to `at` (epoch ms); an instant not after now is ignored. */
  moveTo(at: number): void;
}

export function offsetClock(base: Clock, offsetMs = 0): MovableClock {
  let offset = Math.max(0, offsetMs);
  return {
    now: () => base.now() + offset,
    offsetMs: () => offset,
    moveTo: (at) => {
      const ahead = at - (base.now() + offset);
      if (ahead > 0) offset += ahead;
    },
  };
}

/** `clock` as a MovableClock when it is one (the service's clock is one unless a test gave its own). */
export function movable(clock: Clock): MovableClock | null {
  const c = clock as Partial<MovableClock>;
  return typeof c.moveTo === "function" && typeof c.offsetMs === "function" ? (clock as MovableClock) : null;
}
