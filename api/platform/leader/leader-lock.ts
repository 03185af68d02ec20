/**
 * Which instance owns the exchange (docs/scale-out.md): the one holding a session-level Postgres advisory lock on a
 * dedicated connection. Postgres drops the lock with that session, so a leader that dies (SIGKILL, OOM, a lost host
 * whose socket closes) frees it without a lease timer, and a follower polling `pg_try_advisory_lock` takes over.
 *
 * The leader advertises its URL in `service_leader` (migration 380) together with the backend pid of its lock
 * session; a follower trusts a row only while that pid still holds the lock (pg_locks), so a dead leader's row is
 * never followed. The leader checks its own session on every poll: a session that changed under it (the driver
 * reconnected after a Postgres restart) means the lock may be someone else's, and the leader must stop at once.
 */
import postgres from "postgres";

/** First half of the two-int advisory key: "the exchange" (the second half names the schema). */
const EXCHANGE_LOCK_CLASS = 19_019;

/** The second half: a stable 31-bit hash of the schema, so two deployments on one server never share a leader. */
export function exchangeLockKey(schema: string | undefined): number {
  let h = 0x811c9dc5;
  for (const ch of schema ?? "public") h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return (h >>> 0) & 0x7fffffff;
}

export interface LeaderLock {
  /** Takes the lock if it is free; true once this instance is the leader. */
  tryAcquire(): Promise<boolean>;
  /** The advertised URL of the instance holding the lock now, or null (none, or not advertised yet). */
  leaderUrl(): Promise<string | null>;
  /** Records `url` as the leader's (call after tryAcquire returned true and the service listens). */
  advertise(url: string, nowMs: number): Promise<void>;
  /** Whether this instance still holds the lock on the same session it took it on. */
  stillHeld(): Promise<boolean>;
  close(): Promise<void>;
}

export function openLeaderLock(databaseUrl: string, schema: string | undefined): LeaderLock {
  const key = exchangeLockKey(schema);
  const table = schema ? `"${schema.replace(/"/g, "")}".service_leader` : "service_leader";
  // One connection, never recycled by the driver: the lock lives exactly as long as this session.
  const sql = postgres(databaseUrl, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    onnotice: () => {},
    connection: { application_name: "pm-exchange-leader-lock" },
  });
  let heldOnPid: number | null = null;

  const holderPid = async (): Promise<number | null> => {
    const rows = await sql<{ pid: number }[]>`
      SELECT pid FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid::text::bigint = ${EXCHANGE_LOCK_CLASS} AND objid::text::bigint = ${key}
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    return rows[0]?.pid ?? null;
  };

  return {
    async tryAcquire() {
      const [row] = await sql<
        { ok: boolean; pid: number }[]
      >`SELECT pg_try_advisory_lock(${EXCHANGE_LOCK_CLASS}::int, ${key}::int) AS ok, pg_backend_pid() AS pid`;
      if (row?.ok) heldOnPid = row.pid;
      return row?.ok === true;
    },
    async leaderUrl() {
      const pid = await holderPid();
      if (pid === null) return null;
      try {
        const rows = await sql.unsafe<{ url: string }[]>(`SELECT url FROM ${table} WHERE lock_key = $1 AND backend_pid = $2`, [key, pid]);
        return rows[0]?.url ?? null;
      } catch {
        return null; // not migrated yet: the first leader is still starting
      }
    },
    async advertise(url, nowMs) {
      if (heldOnPid === null) throw new Error("advertise without the leader lock");
      await sql.unsafe(
        `INSERT INTO ${table} (lock_key, url, backend_pid, since_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (lock_key) DO UPDATE SET url = EXCLUDED.url, backend_pid = EXCLUDED.backend_pid, since_ms = EXCLUDED.since_ms`,
        [key, url, heldOnPid, nowMs],
      );
    },
    async stillHeld() {
      if (heldOnPid === null) return false;
      try {
        const [row] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        return row?.pid === heldOnPid && (await holderPid()) === heldOnPid;
      } catch {
        return false;
      }
    },
    async close() {
      await sql.end({ timeout: 1 });
    },
  };
}
