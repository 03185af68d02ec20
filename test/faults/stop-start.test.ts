/**
 * Fault: the stack stopped at any moment, in any way (issue 19). `scripts/start.ts` (what `npm start` runs) is started
 * STOP_START_RUNS times (default 20) on the same ports and DATA_DIR and stopped at a random moment of start-up or
 * running (seeded: STOP_START_SEED) by SIGTERM, SIGINT or SIGKILL in turn. After each stop every process of the stack
 * is gone within 5 s (found by a marker in its environment, so a child that left its parent's process group or tree
 * is still found) and the three ports take a listener again. Then a last start must come up and answer /time: the
 * stack survived every restart. A port left taken by an earlier stack is one message that names the variable, the
 * process and what to do, and starts nothing.
 */
import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { deploymentFile } from "../../decoder/deployment";
import { freePort } from "../support/ports";
import { seededRandom } from "../../relayer/seeded-random";
import { startChain } from "../../scripts/stack/chain";

const ROOT = join(__dirname, "..", "..");
const RUNS = Number(process.env.STOP_START_RUNS ?? 20);
const SEED = Number(process.env.STOP_START_SEED ?? 19);
/** The promise of docs/stack.md: every child gone within 5 s of the signal, whichever it was. */
const STOP_LIMIT_MS = 5_000;
const SIGNALS: NodeJS.Signals[] = ["SIGTERM", "SIGKILL", "SIGINT"];

/** Running (not zombie) processes, "<pid> <command> [state, ppid, pgrp]", whose environment carries `STACK_RUN_MARK=<mark>`. */
function markedProcesses(mark: string): string[] {
  const needle = `STACK_RUN_MARK=${mark}\0`;
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "latin1").includes(needle)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z") continue; // exited, waiting to be reaped
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").slice(0, 140);
      // State (D: in a disk wait, which even SIGKILL waits out), parent and group: what a failure needs to say.
      found.push(`${pid} ${cmd} [state ${state}, ppid ${ppid}, pgrp ${pgrp}]`);
    } catch {
      /* gone meanwhile, or not ours */
    }
  }
  return found;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen({ port, host: "127.0.0.1", exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Whether the port takes a listener before `deadline` (performance.now() ms). The promise is "within 5 s of the
 * signal", ports included: the last process can be gone a moment before the kernel has let go of its socket (CI saw
 * CHAIN_PORT taken once with no process of the stack left, the port below the ephemeral range).
 */
async function freeWithin(port: number, deadline: number): Promise<boolean> {
  for (;;) {
    if (await portFree(port)) return true;
    if (performance.now() >= deadline) return false;
    await sleep(50);
  }
}

/** What `ss` shows on the port, with the owning processes, to say who held it when the check fails. */
function holdersOf(port: number): string {
  const r = spawnSync("ss", ["-tanpH", `( sport = :${port} )`], { encoding: "utf8" });
  return r.error ? `(ss: ${r.error.message})` : r.stdout.trim() || "(ss shows no socket on it)";
}

interface Run {
  pid: number;
  output: string[];
  /** Resolves with the ready time in ms once the banner's last line is printed. */
  ready: Promise<number>;
  exited: Promise<number | string>;
  exitValue: () => number | string | undefined;
}

describe("fault: stop and start the stack at any moment", { timeout: 60 * 60_000 }, () => {
  const mark = randomUUID();
  const dir = mkdtempSync(join(tmpdir(), "pm-stopstart-"));
  const chainId = 31_000 + Math.floor(Math.random() * 9_000);
  const ports: Record<string, number> = {};
  after(() => {
    for (const p of markedProcesses(mark)) {
      try {
        process.kill(Number(p.split(" ")[0]), "SIGKILL");
      } catch {
        /* gone */
      }
    }
    rmSync(deploymentFile(chainId), { force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (): Run => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(ports.PORT),
      CHAIN_PORT: String(ports.CHAIN_PORT),
      PONDER_PORT: String(ports.PONDER_PORT),
      CHAIN_ID: String(chainId),
      DATA_DIR: join(dir, "data"),
      STACK_RUN_MARK: mark,
    };
    for (const k of ["NODE_TEST_CONTEXT", "RPC_URL", "FORK_URL", "PUBLIC_URL", "REDIS_URL", "STACK_CHILD", "DEMO_AGENTS", "DATABASE_URL", "DATABASE_SCHEMA"])
      delete env[k];
    const t0 = performance.now();
    const proc = spawn(process.execPath, ["--import", "tsx", join(ROOT, "scripts", "start.ts"), "--no-demo-agents"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output: string[] = [];
    let exitValue: number | string | undefined;
    const exited = new Promise<number | string>((resolve) => proc.once("exit", (code, signal) => resolve((exitValue = code ?? signal ?? -1))));
    const ready = new Promise<number>((resolve) => {
      for (const stream of [proc.stdout, proc.stderr]) {
        stream.setEncoding("utf8");
        stream.on("data", (chunk: string) => {
          output.push(chunk);
          if (chunk.includes("Ctrl-C stops everything")) resolve(performance.now() - t0);
        });
      }
    });
    return { pid: proc.pid!, output, ready, exited, exitValue: () => exitValue };
  };

  /**
   * Ms from the signal until no process of the stack runs (or `STOP_LIMIT_MS * 3` if some never go), and the
   * processes still there when the limit passed: who was late, and in which state.
   */
  const goneWithin = async (): Promise<{ ms: number; atLimit: string[] }> => {
    const t0 = performance.now();
    let atLimit: string[] = [];
    while (performance.now() - t0 < STOP_LIMIT_MS * 3) {
      const left = markedProcesses(mark);
      if (left.length === 0) return { ms: performance.now() - t0, atLimit };
      if (performance.now() - t0 > STOP_LIMIT_MS && atLimit.length === 0) atLimit = left;
      await sleep(50);
    }
    return { ms: performance.now() - t0, atLimit };
  };

  it(`survives ${RUNS} stops at random moments (SIGTERM, SIGKILL, SIGINT) with no process left and the ports free`, async () => {
    for (const name of ["PORT", "CHAIN_PORT", "PONDER_PORT"]) ports[name] = await freePort(); // taken again after every stop: test ports are below the ephemeral range
    const random = seededRandom(SEED);
    // The first run comes up fully: its ready time bounds the random moments of the others.
    let readyMs = 0;
    const stops: { signal: string; atMs: number; goneMs: number; exit: number | string | undefined }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const signal = SIGNALS[i % SIGNALS.length]!;
      const run = start();
      let atMs: number;
      if (i === 0) {
        readyMs = await Promise.race([run.ready, run.exited.then((c) => Promise.reject(new Error(`exited ${c}:\n${run.output.join("")}`)))]);
        atMs = readyMs;
      } else {
        atMs = Math.round(random() * readyMs * 1.1); // mostly start-up, some of it running
        await Promise.race([sleep(atMs), run.exited]);
      }
      const early = run.exitValue();
      assert.equal(early, undefined, `run ${i}: the stack exited (${early}) before the stop at ${atMs} ms:\n${run.output.join("").slice(-3000)}`);
      const signalledAt = performance.now();
      process.kill(run.pid, signal);
      const { ms: goneMs, atLimit } = await goneWithin();
      const left = markedProcesses(mark);
      const exit = await Promise.race([run.exited, sleep(1_000).then(() => undefined)]);
      stops.push({ signal, atMs, goneMs: Math.round(goneMs), exit });
      assert.deepEqual(left, [], `run ${i} (${signal} at ${atMs} ms): processes left after ${Math.round(goneMs)} ms:\n${left.join("\n")}`);
      assert.ok(
        goneMs <= STOP_LIMIT_MS,
        `run ${i} (${signal} at ${atMs} ms): the stack took ${Math.round(goneMs)} ms to stop (limit ${STOP_LIMIT_MS}); left at the limit:\n${atLimit.join("\n")}`,
      );
      if (signal !== "SIGKILL") assert.equal(exit, 0, `run ${i}: the supervisor exits 0 after ${signal}:\n${run.output.join("").slice(-2000)}`);
      for (const [name, port] of Object.entries(ports)) {
        const free = await freeWithin(port, signalledAt + STOP_LIMIT_MS);
        assert.ok(free, `run ${i} (${signal} at ${atMs} ms): ${name} ${port} is still taken ${STOP_LIMIT_MS} ms after the signal:\n${holdersOf(port)}`);
      }
    }

    // Every restart survived: one more start comes up on the same DATA_DIR and answers.
    const last = start();
    await Promise.race([last.ready, last.exited.then((c) => Promise.reject(new Error(`the last start exited ${c}:\n${last.output.join("")}`)))]);
    const time = await fetch(`http://127.0.0.1:${ports.PORT}/api/agent/v1/time`);
    assert.equal(time.status, 200);
    process.kill(last.pid, "SIGTERM");
    const lastStop = await goneWithin();
    assert.ok(lastStop.ms <= STOP_LIMIT_MS, `the last start stops within the limit; left at the limit:\n${lastStop.atLimit.join("\n")}`);
    assert.deepEqual(markedProcesses(mark), []);

    const byKind = (s: string) => stops.filter((x) => x.signal === s).map((x) => x.goneMs);
    console.log(
      JSON.stringify({
        bench: "stop-start",
        restarts: stops.length,
        readyMs: Math.round(readyMs),
        maxStopMs: Math.max(...stops.map((s) => s.goneMs)),
        maxStopMsBySignal: Object.fromEntries(SIGNALS.map((s) => [s, Math.max(0, ...byKind(s))])),
        leftover: 0,
      }),
    );
  });

  it("a port an earlier stack left answering is one message that says what to do, and nothing starts", async () => {
    const port = await freePort();
    const leftover = await startChain(port); // a Hardhat node, as an earlier `npm start` leaves it
    try {
      ports.CHAIN_PORT = port;
      for (const name of ["PORT", "PONDER_PORT"]) ports[name] = await freePort(); // taken again after every stop: test ports are below the ephemeral range
      const run = start();
      const exit = await Promise.race([run.exited, sleep(60_000).then(() => "timeout")]);
      const out = run.output.join("");
      assert.equal(exit, 1, out);
      assert.match(out, new RegExp(`port ${port} \\(CHAIN_PORT\\) on 127\\.0\\.0\\.1 is already in use by pid \\d+ `));
      assert.match(out, /left by an earlier `npm start`/);
      assert.match(out, new RegExp(`kill -TERM -- -${leftover.child.proc.pid}`));
      assert.match(out, /CHAIN_PORT=<free port> npm start/);
      assert.doesNotMatch(out, /the chain exited/);
      assert.deepEqual(markedProcesses(mark), [], "nothing of the refused start keeps running");
    } finally {
      await leftover.stop();
    }
  });
});
