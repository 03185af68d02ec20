/**
 * One timer for the earliest of a set of deadlines (GTD expiries, market lifecycle deadlines): armed for the instant
 * `next()` names, re-armed after it fires and after every command (unless already set for that instant or earlier).
 * Never keeps a process alive.
 */
import type { Clock } from "../clock";

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
    const handle = setTimeout(() => {
      this.#timer = null;
      this.fire().finally(() => this.arm());
    }, delay);
    handle.unref();
    this.#timer = { at: due, handle };
  }

  clear(): void {
    if (this.#timer) clearTimeout(this.#timer.handle);
    this.#timer = null;
  }
}
