import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Ports for the tests' own servers and chains, handed out so that two test files running side by side never get the
 * same one:
 * - Below Linux's ephemeral range (32768–60999). A port from there, once its prober closed it, can be handed to any
 *   process's outgoing connection as its local port, which then keeps a listener off it; and the kernel may hand the
 *   same port to a second `listen(0)` before the first test's child has bound it.
 * - Claimed with a lock file created exclusively (`wx`) in one directory shared by every test process, so another
 *   test process skips it even in the seconds before our child (a Hardhat node, `npm start`) binds it. The claim holds
 *   until this process exits, so a port can also be taken again after its holder died (the stop-start tests).
 * A lock left by a killed test process keeps its port out of use; the range has 12,000 ports, a CI run uses hundreds.
 */
const LOCK_DIR = join(tmpdir(), "agent-pm-test-ports");

/** Lock files this process created; they go when it exits. */
const held = new Set<string>();
process.once("exit", () => {
  for (const path of held) rmSync(path, { force: true });
});

function claim(path: string): boolean {
  try {
    writeFileSync(path, String(process.pid), { flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  held.add(path);
  return true;
}

function release(path: string): void {
  held.delete(path);
  rmSync(path, { force: true });
}

/** Whether nothing listens on 127.0.0.1:`port` right now (a service of the machine, a test run before locks). */
function unbound(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen({ port, host: "127.0.0.1", exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** Hands out ports of [first, first + count) under the rules above, with its locks in `lockDir`. */
export function portReserver(opts: { first: number; count: number; lockDir: string; tries?: number }): () => Promise<number> {
  const { first, count, lockDir, tries = 1_000 } = opts;
  return async () => {
    mkdirSync(lockDir, { recursive: true });
    for (let i = 0; i < tries; i++) {
      const port = first + Math.floor(Math.random() * count);
      const lock = join(lockDir, String(port));
      if (!claim(lock)) continue;
      if (await unbound(port)) return port;
      release(lock);
    }
    throw new Error(`no free test port in ${first}–${first + count - 1} after ${tries} tries (locks in ${lockDir})`);
  };
}

/** A TCP port on 127.0.0.1 that is free and that no other test process will be handed while this one runs. */
export const freePort = portReserver({ first: 20_000, count: 12_000, lockDir: LOCK_DIR });
