/**
 * Two or more service instances on one Postgres (LEADER_ELECTION=true, docs/scale-out.md). Before the service opens
 * its exchange, the process takes the exchange's advisory lock; while another instance holds it, this one is a
 * follower that forwards every request to the leader (api/transports/forward/follower.ts) and polls the lock every
 * LEADER_POLL_MS. Once it has the lock it starts the whole service on the same port (the follower's listener closes
 * just before the service's opens), advertises its URL, and from then on checks its lock session on every poll: a
 * leader whose session is gone exits (code 75) rather than risk a second writer, and its supervisor restarts it as a
 * follower.
 */
import type { Logger } from "pino";
import { ConfigError, type Config } from "./config";
import { openLeaderLock, type LeaderLock } from "./platform/leader/leader-lock";
import { startFollower } from "./transports/forward/follower";

/** The exit code of a leader that lost its lock session (EX_TEMPFAIL: restart me). */
export const LOST_LEADERSHIP_EXIT = 75;

export interface Leadership {
  lock: LeaderLock;
  /** Ms from starting as a follower to holding the lock (0 when it was free at once). */
  waitedMs: number;
  /** Closes the follower's listener; the service calls it right before it listens on the same port. */
  beforeListen: () => Promise<void>;
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
  if (!(await lock.tryAcquire())) {
    const follower = await startFollower({ host: config.HOST, port: config.PORT, lock, nowMs });
    closeFollower = () => follower.close();
    log.info({ port: follower.port }, "another instance owns the exchange: following it");
    onFollowing(follower.port);
    for (;;) {
      await new Promise((r) => setTimeout(r, config.LEADER_POLL_MS));
      if (await lock.tryAcquire().catch(() => false)) break;
    }
    log.info({ forwarded: follower.forwarded() }, "the exchange's lock is ours: taking over");
  }
  const waitedMs = nowMs() - started;
  return {
    lock,
    waitedMs,
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
