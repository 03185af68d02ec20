/**
 * A private PostgreSQL server for fault tests that must restart the database: `initdb` into a temp directory and
 * `pg_ctl` on a free port, from the server binaries of this machine (/usr/lib/postgresql/<version>/bin). The shared
 * server on 5432 is never touched. initdb refuses to run as root, so as root the server runs as the `postgres` user
 * (runuser); trust auth on 127.0.0.1, superuser `postgres`, database `postgres`.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./ports";

export interface PrivatePostgres {
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: every connection is terminated (57P01) and new ones are refused. */
  stop(): void;
  start(): void;
  /** Stops the server and removes its directory. */
  destroy(): void;
}

/** The newest server binaries directory, or null when none is installed. */
export function postgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin");
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "pm-pg-"));
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]] : [join(bin, tool), args];
    execFileSync(cmd, argv, { stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  };
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const start = () =>
    run("pg_ctl", ["-D", data, "-w", "-l", join(dir, "server.log"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "start"]);
  start();
  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => run("pg_ctl", ["-D", data, "-w", "-m", "fast", "stop"]),
    start,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      try {
        run("pg_ctl", ["-D", data, "-w", "-m", "immediate", "stop"]);
      } catch {
        /* already stopped */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
