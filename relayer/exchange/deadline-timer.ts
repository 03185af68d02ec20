/**
 * One timer for the earliest of a set of deadlines (GTD expiries, market lifecycle deadlines): armed for the instant
 * `next()` names, re-armed after it fires and after every command (unless already set for that instant or earlier).
 * Never keeps a process alive.
 */
import type { Clock } from "../clock";
import { commitScope } from "../db/group-commit";

/** setTimeout's ceiling (about 24.8 days); a later deadline re-arms when this fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class DeadlineTimer {
  #timer: { at: number; handle: NodeJS.Timeout } | null = null;

  constructor(
    private readonly clock: Clock,
    /** The earliest deadline, or undefined. */
    private readonly next: () => number | undefined,
    /** Runs when the deadline is reached; the timer re-arms after it settles when `active()`. */
    private readonly fire: () => Promise<unknown>,
    private readonly active: () => boolean,
  ) {}

  arm(): void {
    if (!this.active()) return;
    const due = this.next();
    if (due === undefined) return;
    if (this.#timer && this.#timer.at <= due) return;
    this.clear();
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, due - this.clock.now()));
    // Outside any call's commit unit (relayer/db/group-commit.ts): the deadline's command is its own, committed on its own.
    const handle = commitScope.exit(() =>
      setTimeout(() => {
        this.#timer = null;
        this.fire().finally(() => this.arm());
      }, delay),
    );
    handle.unref();
    this.#timer = { at: due, handle };
  }

  clear(): void {
    if (this.#timer) clearTimeout(this.#timer.handle);
    this.#timer = null;
  }
}
