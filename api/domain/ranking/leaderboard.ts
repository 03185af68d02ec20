/**
 * The ranking reads' service (GET /discover/leaderboard, GET /discover/traders/{address}): publishes generations
 * (./generation.ts) and answers from one.
 *
 * - A read serves the newest generation while it is younger than LEADERBOARD_REFRESH_MS; an older one makes the read
 *   build the next (one build at a time; reads meanwhile wait for it). A build that fails leaves the last generation
 *   served, marked `stale`.
 * - A generation's id is a UUIDv7 carrying the generation's instant and last journal seq. A reader that pins one gets
 *   it from memory, or, on another instance or after a restart, rebuilt from the journal up to that seq and instant:
 *   the same figures, since the journal never changes what it holds. Pins older than PIN_MAX_AGE_MS are refused 410 EXPIRED_TOKEN.
 */
import { reputationBoardOf, type ReputationBoardQuery } from "./reputation-board";
import type { Logger } from "pino";
import type { SqlRunner } from "../../../relayer/db/client";
import type { Clock } from "../../../relayer/clock";
import { ApiError } from "../../platform/errors/api-error";
import { lastEntrySeq } from "../../../relayer/journal/store";
import { GenerationBuilder, type Generation, type GenerationFigures } from "./generation";
import type { Season } from "./periods";
import type { Address } from "viem";
import { boardOf, profileOf, standingsOf, type BoardQuery } from "./answers";
import { generationOf, uuidV7 } from "./generation-id";
import { encodeCheckpoint, saveCheckpoint, usableCheckpoint } from "./pass-checkpoint";
/** Generations kept in memory for pinned reads (published here, and rebuilt for pins from elsewhere). */
const KEEP = 16;
/** How far back a pinned generation is still served (rebuilt if need be). */
export const PIN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface LeaderboardOptions {
  db: SqlRunner;
  clock: Clock;
  chainId: number;
  season: Season;
  refreshMs: number;
  /**
   * Store the pass's checkpoint when a build has applied this many entries since the last one, and at `close`; the
   * first build after a start restores it (docs/leaderboard.md "Restart"). 0 (the default): none stored or restored.
   */
  checkpointEvery?: number;
  log?: Pick<Logger, "info" | "warn">;
}

export class Leaderboard {
  readonly #builder: GenerationBuilder;
  #kept: Generation[] = [];
  #building: Promise<Generation> | null = null;
  /** Rebuilt pins by `asOf:lastSeq`, most recent last; rebuilds run one at a time (each reads the journal). */
  #rebuilt = new Map<string, GenerationFigures>();
  #rebuilding: Promise<unknown> = Promise.resolve();
  /** The first build's look for a checkpoint; the entry the stored checkpoint was taken after. */
  #restored: Promise<void> | null = null;
  #checkpointed = 0;
  /** `checkpointEvery`, 0 when off. */
  readonly #checkpointEvery: number;
  #saving: Promise<void> | null = null;

  constructor(private readonly o: LeaderboardOptions) {
    this.#builder = new GenerationBuilder(o.db, o.chainId, o.season);
    this.#checkpointEvery = o.checkpointEvery ?? 0;
  }

  /** Waits for a build and a checkpoint store in flight, then stores the pass's checkpoint if it moved since the last. */
  async close(): Promise<void> {
    await this.#building?.catch(() => {});
    await this.#saving;
    if (this.#checkpointEvery > 0 && this.#builder.lastSeq > this.#checkpointed) await this.#saveCheckpoint();
  }

  /** One page of a board (the response of GET /discover/leaderboard). */
  async board(q: BoardQuery) {
    const { gen, stale } = await this.#generation(q.generation);
    return boardOf(gen, q, stale);
  }

  /** One account's trading profile (the response of GET /discover/traders/{address}); `address` lower-case. */
  async profile(address: Address, generation?: string) {
    const { gen, stale } = await this.#generation(generation);
    return profileOf(gen, address, stale);
  }

  /** One page of the reputation leaderboard by role (GET /reputation/leaderboard), from the current generation. */
  async reputationBoard(q: ReputationBoardQuery) {
    const { gen, stale } = await this.#generation(undefined);
    return reputationBoardOf(gen, q, stale);
  }

  /** All-time trading and voting standing of each address (lower-case), in order: the reputation reads' part. */
  async standings(addresses: readonly Address[]) {
    const { gen } = await this.#generation(undefined);
    return standingsOf(gen, addresses);
  }

  async #generation(pinned: string | undefined): Promise<{ gen: Generation; stale: boolean }> {
    const now = this.o.clock.now();
    return pinned ? { gen: await this.#pinned(pinned, now), stale: false } : this.#current(now);
  }

  /** The generation to serve now; `stale` when the build of a newer one failed and the last one stands in. */
  async #current(now: number): Promise<{ gen: Generation; stale: boolean }> {
    const newest = this.#kept.at(-1);
    if (newest && now - newest.asOf < this.o.refreshMs) return { gen: newest, stale: false };
    try {
      return { gen: await this.#build(now), stale: false };
    } catch (err) {
      if (!newest) throw err;
      return { gen: newest, stale: true };
    }
  }

  #build(now: number): Promise<Generation> {
    this.#building ??= this.#restoreOnce(now)
      .then(() => this.#builder.build(now))
      .then((g) => {
        this.#checkpointIfDue();
        // Nothing journaled and no time passed since the newest: it is the same generation, under the same id.
        const newest = this.#kept.at(-1);
        if (newest && newest.asOf === g.asOf && newest.lastSeq === g.lastSeq) return newest;
        const gen = { ...g, id: uuidV7(g.asOf, g.lastSeq) };
        this.#kept = [...this.#kept, gen].slice(-KEEP);
        return gen;
      })
      .finally(() => {
        this.#building = null;
      });
    return this.#building;
  }

  /** Before the first build: the stored checkpoint, when it is this journal's and this season's (else the journal's start). */
  #restoreOnce(now: number): Promise<void> {
    if (this.#checkpointEvery <= 0) return Promise.resolve();
    this.#restored ??= usableCheckpoint(this.o.db, { maxSeq: Number.MAX_SAFE_INTEGER, now, season: this.o.season }).then(
      ({ checkpoint, setAside }) => {
        if (setAside) this.o.log?.warn({ reason: setAside }, "the leaderboard's checkpoint is set aside; the pass reads the journal from its start");
        if (!checkpoint) return;
        this.#builder.restore(checkpoint);
        this.#checkpointed = checkpoint.lastSeq;
        this.o.log?.info({ lastSeq: checkpoint.lastSeq }, "the leaderboard's pass restored from its checkpoint");
      },
      (err: unknown) => this.o.log?.warn({ err }, "reading the leaderboard's checkpoint failed; the pass reads the journal from its start"),
    );
    return this.#restored;
  }

  #checkpointIfDue(): void {
    const every = this.#checkpointEvery;
    if (every <= 0 || this.#saving || this.#builder.lastSeq - this.#checkpointed < every) return;
    this.#saving = this.#saveCheckpoint().finally(() => {
      this.#saving = null;
    });
  }

  /**
   * Stores the checkpoint of what the pass holds now (written a line at a time, builds going on meanwhile); a failure is
   * logged, and the next is tried at the next due build.
   */
  async #saveCheckpoint(): Promise<void> {
    const c = this.#builder.checkpoint();
    if (!c) return;
    try {
      const body = await encodeCheckpoint(c);
      const stored = await saveCheckpoint(this.o.db, {
        lastSeq: c.lastSeq,
        appliedTo: c.appliedTo,
        body,
        season: this.o.season,
        createdAt: this.o.clock.now(),
      });
      this.#checkpointed = c.lastSeq;
      if (stored) this.o.log?.info({ lastSeq: c.lastSeq, bytes: body.length }, "leaderboard checkpoint stored");
    } catch (err) {
      this.o.log?.warn({ err, lastSeq: c.lastSeq }, "storing the leaderboard's checkpoint failed");
    }
  }

  async #pinned(id: string, now: number): Promise<Generation> {
    const named = generationOf(id);
    if (named === null) throw new ApiError("INVALID_PAYLOAD", "generation is not a generation id this service published (a UUIDv7)");
    const { asOf, lastSeq } = named;
    // Two ids with the same instant and seq name the same figures, whatever their random bits.
    const kept = this.#kept.find((g) => g.asOf === asOf && g.lastSeq === lastSeq);
    if (kept) return { ...kept, id };
    if (asOf > now) throw new ApiError("INVALID_PAYLOAD", "generation names an instant still to come");
    if (now - asOf > PIN_MAX_AGE_MS) {
      throw new ApiError("EXPIRED_TOKEN", "this generation is older than 24 hours; read without `generation` for the current one");
    }
    if (lastSeq > (await lastEntrySeq(this.o.db))) throw new ApiError("INVALID_PAYLOAD", "generation names journal entries not yet written");
    // Another instance published it, or this one restarted: the journal up to its seq and instant gives its figures.
    const key = `${asOf}:${lastSeq}`;
    const run = this.#rebuilding.then(async () => {
      const known = this.#rebuilt.get(key);
      if (known) return known;
      const g = await new GenerationBuilder(this.o.db, this.o.chainId, this.o.season).build(asOf, lastSeq);
      this.#rebuilt.set(key, g);
      for (const k of this.#rebuilt.keys()) if (this.#rebuilt.size > KEEP) this.#rebuilt.delete(k);
      return g;
    });
    this.#rebuilding = run.catch(() => undefined);
    return { ...(await run), id };
  }
}
