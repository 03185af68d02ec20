/**
 * Time that moves on a local chain (docs/dev-chain.md): `advance(ms)` moves the chain's clock (evm_increaseTime and a
 * mined block), then walks the service's clock forward through every clock-driven transition that came due, in time
 * order: the clock stops at each due instant and that transition runs then, journaled and announced with that `at`,
 * exactly as it would have in real time; the clock then rests at the target. The offset is stored, so a restart
 * resumes at the moved time. Never backwards; one advance at a time.
 *
 * Transitions that are read against the clock rather than run (claim and verification links, trial keys, nonces,
 * allowance periods, rate windows, webhook retry times) need no step: they follow the moved clock on their next read.
 */
import type { Logger } from "pino";
import type { Database } from "../../../relayer/db/client";
import type { MovableClock } from "../../../relayer/clock";
import { advanceChainClock, type ChainHead } from "./chain-time";
import { writeClockOffset } from "./clock-store";

/** One kind of transition the clock drives. */
export interface DueSource {
  name: string;
  /** The earliest instant (epoch ms) at which this source has something due, if anything. */
  nextDue(): number | undefined;
  /** Runs what is due at `at` (the clock reads `at`); a line per thing done, empty when nothing was. */
  run(at: number): Promise<string[]>;
}

export interface Transition {
  at: number;
  source: string;
  detail: string;
}

export interface Advanced {
  advancedMs: number;
  offsetMs: number;
  from: number;
  now: number;
  chain: ChainHead | null;
  transitions: Transition[];
}

/** Far more due steps than one advance meets; a source that never settles is dropped rather than looping. */
const MAX_STEPS = 100_000;

export class DevTime {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly o: {
      db: Database;
      clock: MovableClock;
      /** The chain's RPC, or null when there is no chain to move (the service alone, in some tests). */
      rpcUrl: string | null;
      sources: readonly DueSource[];
      log: Logger;
      /** Called after every advance (the webhook worker looks for deliveries that came due). */
      afterAdvance?: () => void;
    },
  ) {}

  offsetMs(): number {
    return this.o.clock.offsetMs();
  }

  /** Moves chain and service forward by `ms` (> 0); advances queue behind each other. */
  advance(ms: number): Promise<Advanced> {
    const run = this.#queue.then(() => this.#advance(ms));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #advance(ms: number): Promise<Advanced> {
    if (!Number.isSafeInteger(ms) || ms <= 0) throw new RangeError(`advance needs a positive whole number of milliseconds; got ${ms}`);
    const { clock } = this.o;
    // The chain first: if it refuses, nothing has moved.
    const chain = this.o.rpcUrl ? await advanceChainClock(this.o.rpcUrl, ms) : null;
    const from = clock.now();
    const target = from + ms;
    const transitions: Transition[] = [];
    const dropped = new Set<string>();
    for (let step = 0; step < MAX_STEPS; step++) {
      const next = this.#earliest(dropped, target);
      if (!next) break;
      clock.moveTo(next.due);
      const at = clock.now();
      const done = await next.source.run(at);
      for (const detail of done) transitions.push({ at, source: next.source.name, detail });
      // A source still due at or before the instant it just ran at did not settle (e.g. the exchange is unavailable).
      const again = next.source.nextDue();
      if (again !== undefined && again <= at && done.length === 0) {
        dropped.add(next.source.name);
        this.o.log.warn({ source: next.source.name, due: again }, "time advance: a due transition did not run; it runs at its next chance");
      }
    }
    clock.moveTo(target);
    await writeClockOffset(this.o.db, clock.offsetMs(), clock.now());
    this.o.log.info({ advancedMs: ms, offsetMs: clock.offsetMs(), transitions: transitions.length, block: chain?.blockNumber }, "time advanced");
    this.o.afterAdvance?.();
    return { advancedMs: ms, offsetMs: clock.offsetMs(), from, now: clock.now(), chain, transitions };
  }

  #earliest(dropped: ReadonlySet<string>, target: number): { source: DueSource; due: number } | null {
    let best: { source: DueSource; due: number } | null = null;
    for (const source of this.o.sources) {
      if (dropped.has(source.name)) continue;
      const due = source.nextDue();
      if (due === undefined || due > target) continue;
      if (!best || due < best.due) best = { source, due };
    }
    return best;
  }
}
