/**
 * Two or more service instances on one Postgres (LEADER_ELECTION=true, docs/scale-out.md). Before the service opens
 * its exchange, the process takes the exchange's advisory lock; while another instance holds it, this one is a
 * follower that forwards every request to the leader (api/transports/forward/follower.ts) and polls the lock every
 * LEADER_POLL_MS. Once it has the lock it starts the whole service on the same port (the follower's listener closes
 * just before the service's opens), advertises its URL, and from then on checks its lock session on every poll: a
 * leader whose session is gone exits (code 75) rather than risk a second writer, and its supervisor restarts it as a
 * follower.
 *
 * While it follows, it keeps an engine replayed from the committed journal, caught up on every poll, and hands it to
 * the exchange when it takes over: the new leader replays only the entries committed since its last poll instead of
 * the whole journal (about 40,000 entries/s here, so seconds for a long journal).
 */
import type { Logger } from "pino";
import { ConfigError, type Config } from "./config";
import { openLeaderLock, type LeaderLock } from "./platform/leader/leader-lock";
import { startFollower } from "./transports/forward/follower";
import { openDatabase } from "../relayer/db/client";
import { JournalReplay } from "../relayer/exchange/journal-replay";
import { engineConfigOf } from "./domain/venue/open-venue";

/** The exit code of a leader that lost its lock session (EX_TEMPFAIL: restart me). */
export const LOST_LEADERSHIP_EXIT = 75;

export interface Leadership {
  lock: LeaderLock;
  /** Ms from starting as a follower to holding the lock (0 when it was free at once). */
  waitedMs: number;
  /** Closes the follower's listener; the service calls it right before it listens on the same port. */
  beforeListen: () => Promise<void>;
  /** The engine the follower kept replayed from the journal (none when it never followed, or its replay failed). */
  replay?: JournalReplay;
  /** Advertises the service's URL and watches the lock session; `onLost` runs once if it is gone. */
  lead(url: string, onLost: () => void): Promise<void>;
}

/** The URL other instances forward to: INSTANCE_URL, else the bound host and port (a wildcard host as loopback). */
export function instanceUrl(config: Config, port: number): string {
  if (config.INSTANCE_URL) return config.INSTANCE_URL.replace(/\/$/, "");
  const host = config.HOST === "0.0.0.0" || config.HOST === "::" ? "127.0.0.1" : config.HOST;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Resolves once this process holds the exchange's lock, forwarding to the leader meanwhile. */
export async function acquireLeadership(config: Config, log: Logger, nowMs: () => number, onFollowing: (port: number) => void): Promise<Leadership> {
  if (!config.DATABASE_URL)
    throw new ConfigError("LEADER_ELECTION", "needs DATABASE_URL: the instances share one Postgres, whose advisory lock picks the leader");
  const lock = openLeaderLock(config.DATABASE_URL, config.DATABASE_SCHEMA);
  const started = nowMs();
  let closeFollower = async () => {};
  let replay: JournalReplay | undefined;
  if (!(await lock.tryAcquire())) {
    const follower = await startFollower({ host: config.HOST, port: config.PORT, lock, nowMs });
    closeFollower = () => follower.close();
    log.info({ port: follower.port }, "another instance owns the exchange: following it");
    onFollowing(follower.port);
    const warm = await warmReplay(config, log);
    for (;;) {
      warm.catchUp();
      await new Promise((r) => setTimeout(r, config.LEADER_POLL_MS));
      if (await lock.tryAcquire().catch(() => false)) break;
    }
    replay = await warm.handOver();
    log.info({ forwarded: follower.forwarded(), replayedTo: replay?.lastSeq ?? 0 }, "the exchange's lock is ours: taking over");
  }
  const waitedMs = nowMs() - started;
  return {
    lock,
    waitedMs,
    replay,
    beforeListen: () => closeFollower(),
    async lead(url, onLost) {
      await lock.advertise(url, nowMs());
      const timer = setInterval(() => {
        void lock.stillHeld().then((held) => {
          if (held) return;
          clearInterval(timer);
          onLost();
        });
      }, config.LEADER_POLL_MS);
      timer.unref();
    },
  };
}

/**
 * A follower's engine, replayed from the journal on its own connection: `catchUp` starts a read of what was committed
 * since (none while one runs), `handOver` waits for the read in hand and closes the connection. A read that fails (the
 * leader still migrating a new database, Postgres restarting) is tried again at the next poll; an entry that does not
 * replay ends it, and the take-over replays the whole journal, which fails the same way, loudly.
 */
async function warmReplay(config: Config, log: Logger): Promise<{ catchUp(): void; handOver(): Promise<JournalReplay | undefined> }> {
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, schema: config.DATABASE_SCHEMA });
  const engineConfig = engineConfigOf(config);
  // Built at the first read (from the newest engine snapshot, when snapshots are on): the leader may still be
  // migrating a new database.
  let replay: JournalReplay | null = null;
  const startedReplay = (): Promise<JournalReplay> =>
    replay ? Promise.resolve(replay) : JournalReplay.start(db, engineConfig, { log, snapshots: config.SNAPSHOT_EVERY > 0 }).then((r) => (replay = r));
  let reading: Promise<void> | null = null;
  let caughtUp = false;
  const startedAt = performance.now(); // a duration for the operator's log
  return {
    catchUp() {
      if (reading || replay?.failed) return;
      reading = startedReplay()
        .then((r) => r.catchUp(db).then(() => r))
        .then(
          (r) => {
            if (caughtUp) return;
            caughtUp = true;
            log.info(
              { entries: r.lastSeq, snapshotSeq: r.snapshotSeq, replayMs: Math.round(performance.now() - startedAt) },
              "the journal is replayed warm: a take-over replays only what comes after",
            );
          },
          (err: unknown) => {
            if (replay?.failed) log.error({ err }, "the warm replay of the journal stopped: a take-over will replay it whole");
            else log.debug({ err }, "the warm replay could not read the journal now; next poll");
          },
        )
        .finally(() => {
          reading = null;
        });
    },
    async handOver() {
      await reading;
      await db.close();
      return replay && !replay.failed ? replay : undefined;
    },
  };
}
