/**
 * An exclusive, process-owned lock on a data directory.
 *
 * PGlite has no lock of its own: two processes on one directory silently lose committed rows. The lock file holds
 * the owner's pid; a lock whose process is gone (crash, SIGKILL) is taken over at once, so a restart never waits.
 * Taking over happens under a second, short-lived lock (`.lock.takeover`), and the stale content is read again under
 * it: two processes that both found the same stale lock can never remove each other's fresh one.
 */
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";

/** Tells this process apart from an earlier one that had the same pid (pids are reused, e.g. in containers). */
const PROCESS_TOKEN = randomUUID();

export class DirectoryLockedError extends Error {
  override name = "DirectoryLockedError";
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`data directory ${dir} is in use by process ${pid}; stop it first or choose another DATA_DIR`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A takeover lock older than this was left by a process that died inside the takeover (a few statements long). */
const TAKEOVER_STALE_MS = 10_000;

function readOwner(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/** Removes `file` if it still holds `staleContent`, serialised with every other process doing the same. */
function removeStale(file: string, staleContent: string): void {
  const takeover = `${file}.takeover`;
  let fd: number;
  try {
    fd = openSync(takeover, "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    try {
      // wall-clock: file modification times are wall-clock instants, so the staleness test compares with the wall clock.
      if (Date.now() - statSync(takeover).mtimeMs > TAKEOVER_STALE_MS) rmSync(takeover, { force: true });
    } catch {
      // gone meanwhile: the other process finished its takeover
    }
    return; // someone else is taking over; the caller's next attempt sees the result
  }
  try {
    if (readOwner(file) === staleContent) rmSync(file, { force: true });
  } finally {
    closeSync(fd);
    rmSync(takeover, { force: true });
  }
}

/** Takes the lock or throws DirectoryLockedError. Returns the release function. */
export function lockDirectory(dir: string, pid = process.pid): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, ".lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // Created with its content in one step (a hard link of a written file): a lock made by open + write was empty
      // for an instant, and a contender reading it then took it for a dead owner's and removed it (two winners).
      const draft = `${file}.${PROCESS_TOKEN}.${attempt}`;
      writeFileSync(draft, `${pid} ${pid === process.pid ? PROCESS_TOKEN : "-"}`);
      try {
        linkSync(draft, file);
      } finally {
        rmSync(draft, { force: true });
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const content = readOwner(file);
      if (content === null) continue; // released meanwhile
      const [ownerText, token] = content.trim().split(" ");
      const owner = Number(ownerText);
      // Our own pid with another token is a dead predecessor's lock; with our token it is a second open in this process.
      const ownerLives = owner === process.pid ? token === PROCESS_TOKEN : Number.isInteger(owner) && owner > 0 && alive(owner);
      if (ownerLives) throw new DirectoryLockedError(dir, owner);
      removeStale(file, content); // stale: its owner is gone
    }
  }
  throw new DirectoryLockedError(dir, -1);
}
