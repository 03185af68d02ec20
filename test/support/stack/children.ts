/**
 * Child processes of the stack. Each child leads its own process group, so stopping it also stops whatever it
 * spawned (Ponder's and Hardhat's workers): no orphans after Ctrl-C or SIGTERM.
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { createInterface } from "node:readline";

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
  const proc = spawn(command, args, { ...opts, detached: true, stdio: ["ignore", "pipe", "pipe"] });
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
