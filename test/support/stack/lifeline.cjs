// Preloaded (`node --require`) into every Node child of the stack by startChild (children.ts): the child shares its
// supervisor's lifetime. The supervisor holds the other end of a pipe on the child's fd 3; the kernel closes it when
// the supervisor dies in any way, SIGKILL included, and the child then stops its whole process group: SIGTERM
// first, SIGKILL after STACK_LIFELINE_GRACE_MS (default 2500), and SIGKILL again for stragglers when the child exits.
// CommonJS and dependency-free, so that it loads the same way into Hardhat, Ponder and the service.
"use strict";
const { Socket } = require("node:net");

const FD = 3;
const graceMs = Number(process.env.STACK_LIFELINE_GRACE_MS) || 2500;

function killGroup(signal) {
  try {
    process.kill(-process.pid, signal);
  } catch {
    // not a group leader (started without `detached`): only this process
    try {
      process.kill(process.pid, signal);
    } catch {}
  }
}

let orphaned = false;
function onSupervisorGone() {
  if (orphaned) return;
  orphaned = true;
  process.stderr.write?.(`[lifeline] pid ${process.pid}: the stack's supervisor is gone; stopping this process group\n`);
  process.once("exit", () => killGroup("SIGKILL"));
  setTimeout(() => killGroup("SIGKILL"), graceMs); // kept referenced: the process must not linger past it
  killGroup("SIGTERM");
}

try {
  const pipe = new Socket({ fd: FD, readable: true, writable: false });
  pipe.on("data", () => {}); // nothing is ever sent; reading is what notices the close
  pipe.on("end", onSupervisorGone);
  pipe.on("close", onSupervisorGone);
  pipe.on("error", onSupervisorGone);
  pipe.unref(); // the pipe alone never keeps the child alive
} catch (err) {
  process.stderr.write(`[lifeline] fd ${FD} is not the supervisor's pipe (${err.message}); this child will not follow its supervisor\n`);
}
