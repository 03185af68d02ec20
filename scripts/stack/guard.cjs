// The guard: every child of the stack runs under one (startChild, children.ts). `node guard.cjs <command> [args...]`
// leads the child's process group, runs the command in that group, exits as it exits, and does nothing else.
//
// Why a process of its own: the supervisor holds the other end of a pipe on the guard's fd 3, and the kernel closes it
// when the supervisor dies in any way, SIGKILL included. The guard then stops the whole group: SIGTERM first, SIGKILL
// after STACK_LIFELINE_GRACE_MS (default 1500: a process killed mid-write can take seconds more to be gone, and the
// whole stop must fit in 5 s; nothing acknowledged depends on a graceful exit, see docs/stack.md). Watching that
// pipe from inside the child itself (a preloaded hook) was not enough: a child whose event loop is busy (compiling,
// migrating) noticed the close seconds late, and its SIGKILL timer fired late with it. The guard's event loop is always idle, so the bound holds at every moment.
//
// Signals: the group is the unit. SIGTERM/SIGINT sent to the group reach the command directly; the guard ignores them
// and waits for the command to exit, so `exited` in children.ts still means "the command is gone".
// CommonJS and dependency-free: it starts in a few tens of milliseconds.
"use strict";
const { spawn } = require("node:child_process");
const { readdirSync, readFileSync } = require("node:fs");
const { Socket } = require("node:net");

const FD = 3;
const graceMs = Number(process.env.STACK_LIFELINE_GRACE_MS) || 1500;
const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write("usage: node guard.cjs <command> [args...]\n");
  process.exit(2);
}

function killGroup(signal) {
  try {
    process.kill(-process.pid, signal);
  } catch {}
}

/** SIGKILL to every other member of this group (Linux /proc; elsewhere nothing): what the command left behind. */
function killStragglers() {
  let pids = [];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp === process.pid) process.kill(Number(pid), "SIGKILL");
    } catch {}
  }
}

for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => {}); // the group's signal is the command's

// A supervisor that died while this guard was starting (seconds, on a loaded machine) is no longer our parent: then
// start nothing, rather than a command that would only be stopped again after the grace.
const supervisor = Number(process.env.STACK_GUARD_SUPERVISOR);
const env = { ...process.env };
delete env.STACK_GUARD_SUPERVISOR;
if (supervisor > 0 && process.ppid !== supervisor) {
  process.stderr.write(`[guard] pid ${process.pid}: the stack's supervisor (pid ${supervisor}) is gone; not starting ${command}\n`);
  process.exit(129);
}

const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"], env });
child.on("error", (err) => {
  process.stderr.write(`[guard] could not start ${command}: ${err.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => {
  killStragglers();
  if (code !== null) process.exit(code);
  // Exit the way the command did, so the supervisor reads the same signal
  for (const s of ["SIGTERM", "SIGINT", "SIGHUP"]) process.removeAllListeners(s);
  process.kill(process.pid, signal ?? "SIGKILL");
});

let orphaned = false;
function onSupervisorGone() {
  if (orphaned) return;
  orphaned = true;
  process.stderr.write(`[guard] pid ${process.pid}: the stack's supervisor is gone; stopping this process group\n`);
  killGroup("SIGTERM");
  setTimeout(() => killGroup("SIGKILL"), graceMs);
}

try {
  const pipe = new Socket({ fd: FD, readable: true, writable: false });
  pipe.on("data", () => {}); // nothing is ever sent; reading is what notices the close
  pipe.on("end", onSupervisorGone);
  pipe.on("close", onSupervisorGone);
  pipe.on("error", onSupervisorGone);
  pipe.unref();
} catch (err) {
  process.stderr.write(`[guard] fd ${FD} is not the supervisor's pipe (${err.message}); this group will not follow its supervisor\n`);
}
