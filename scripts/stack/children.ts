/**
 * Child processes of the stack. Each child leads its own process group, so stopping it also stops whatever it
 * spawned (Ponder's and Hardhat's workers): no orphans after Ctrl-C or SIGTERM.
 *
 * Every child also runs under a guard (guard.cjs): a tiny process that leads the group, runs the command in it and
 * holds the read end of a pipe whose write end only this process holds. When this process dies without a word
 * (SIGKILL, an OOM kill), the kernel closes the pipe and the guard takes the group down within a few seconds, however
 * busy the command is: no orphans after a SIGKILL of the supervisor either (docs/stack.md).
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";

const GUARD = join(__dirname, "guard.cjs");

export interface Child {
  name: string;
  proc: ChildProcess;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string>;
}

export function startChild(
  name: string,
  command: string,
  args: string[],
  /** `onLine` returning false keeps that line off the terminal (e.g. a machine line that carries a key). */
  opts: SpawnOptions & { onLine?: (line: string) => boolean | undefined; quiet?: boolean } = {},
): Child {
  const proc = spawn(process.execPath, [GUARD, command, ...args], {
    ...opts,
    env: { ...(opts.env ?? process.env), STACK_GUARD_SUPERVISOR: String(process.pid) }, // the guard starts nothing once we are gone
    detached: true,
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  const lifeline = proc.stdio[3] as (NodeJS.ReadableStream & { unref?: () => void; on: (e: string, f: () => void) => void }) | null | undefined;
  if (lifeline) {
    lifeline.on("error", () => {}); // the child's end closing is no error of ours
    lifeline.unref?.(); // held open for the child's sake only; it never keeps this process alive
  }
  const exited = new Promise<number | string>((resolve) => proc.once("exit", (code, signal) => resolve(code ?? signal ?? -1)));
  for (const stream of [proc.stdout, proc.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (line) => {
      const show = opts.onLine?.(line) !== false;
      if (!opts.quiet && show) process.stderr.write(`[${name}] ${line}\n`);
    });
  }
  return { name, proc, exited };
}

function signalGroup(child: Child, signal: NodeJS.Signals): void {
  if (child.proc.pid === undefined || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  try {
    process.kill(-child.proc.pid, signal);
  } catch {
    /* the group is already gone */
  }
}

/** SIGTERM to the child's group; SIGKILL to the group if it has not exited after `graceMs`. */
export async function stopChild(child: Child, graceMs = 10_000): Promise<void> {
  signalGroup(child, "SIGTERM");
  const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
  await child.exited;
  clearTimeout(timer);
  signalGroup(child, "SIGKILL"); // stragglers of the group that ignored SIGTERM
}

/**
 * Stops `stages` of children within `budgetMs` in all: one stage after another, the children of a stage together,
 * each SIGKILLed once its stage's share of what is left runs out (every later stage keeps `reserveMs` for itself).
 * `npm start` promises that every child is gone within 5 s of a SIGTERM or SIGINT (docs/stack.md).
 */
export async function stopChildrenWithin(stages: Child[][], budgetMs: number, reserveMs = 1_000): Promise<void> {
  const deadline = Date.now() + budgetMs;
  for (let i = 0; i < stages.length; i++) {
    const graceMs = Math.max(0, deadline - Date.now() - (stages.length - 1 - i) * reserveMs);
    await Promise.all(stages[i]!.map((child) => stopChild(child, graceMs)));
  }
}
