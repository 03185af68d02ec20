/**
 * Step 0 of `npm start`: every port the stack is about to listen on must be free, before anything starts. A port
 * taken (typically by a stack an earlier run left behind) is one clear message naming the variable, the process that
 * holds the port when this machine can tell (Linux /proc), and what to do, instead of a child failing later with an
 * exit code that does not say why.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";

export interface PortClaim {
  /** The variable that sets it (PORT, CHAIN_PORT, PONDER_PORT). */
  variable: string;
  port: number;
  host: string;
}

function canListen(host: string, port: number): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", (err: NodeJS.ErrnoException) => resolve(err));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(null)));
  });
}

/** Inodes of the listening TCP sockets on `port` (state 0A in /proc/net/tcp and tcp6). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== "0A") continue;
      if (Number.parseInt(f[1]!.split(":")[1]!, 16) === port) inodes.add(f[9]!);
    }
  }
  return inodes;
}

interface Holder {
  pid: number;
  pgid: number;
  cmd: string;
}

/** The process listening on `port`, when /proc lets this user see it. */
export function portHolder(port: number): Holder | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (!m || !inodes.has(m[1]!)) continue;
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
        // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces, so count from the last ")".
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const pgid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
        return { pid: Number(pid), pgid, cmd };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const OURS = /hardhat|ponder|api\/main\.ts|scripts\/start\.ts/;

/** The one message for a taken port: who holds it and what to do. */
export function portTakenMessage(claim: PortClaim, holder: Holder | undefined): string {
  const where = `port ${claim.port} (${claim.variable}) on ${claim.host} is already in use`;
  const elsewhere = `or start on another port: ${claim.variable}=<free port> npm start`;
  if (!holder) return `${where} by another program. Stop it (\`lsof -i :${claim.port}\` or \`ss -ltnp\` shows which), ${elsewhere}.`;
  const cmd = holder.cmd.length > 120 ? `${holder.cmd.slice(0, 117)}...` : holder.cmd;
  if (OURS.test(holder.cmd)) {
    return `${where} by pid ${holder.pid} (${cmd}), left by an earlier \`npm start\`. Stop that stack with \`kill -TERM -- -${holder.pgid}\` (its process group), ${elsewhere}.`;
  }
  return `${where} by pid ${holder.pid} (${cmd}). Stop it with \`kill ${holder.pid}\`, ${elsewhere}.`;
}

/** Every taken port of a start, one message each. */
export class PortsTaken extends Error {
  override name = "PortsTaken";
}

/** Throws one PortsTaken naming every taken port; port 0 (any free port) is never taken. */
export async function assertPortsFree(claims: PortClaim[]): Promise<void> {
  const taken: string[] = [];
  for (const claim of claims) {
    if (claim.port === 0) continue;
    const err = await canListen(claim.host, claim.port);
    if (err?.code === "EADDRINUSE") taken.push(portTakenMessage(claim, portHolder(claim.port)));
    else if (err) taken.push(`port ${claim.port} (${claim.variable}) on ${claim.host} cannot be used: ${err.message}`);
  }
  if (taken.length > 0) throw new PortsTaken(taken.join("\n"));
}
