/**
 * `npm start` with a FORK_URL that does not answer: one line naming FORK_URL and what to do, no stack trace, exit 1,
 * and nothing started (no chain on CHAIN_PORT, no data directory).
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { freePort } from "../../test/support/ports";
import { rpcChainId } from "./wait";

const ROOT = join(__dirname, "..", "..");

describe("npm start with an unreachable FORK_URL", () => {
  it("stops before starting anything, with one line naming FORK_URL", async () => {
    const [deadPort, chainPort, port] = [await freePort(), await freePort(), await freePort()];
    const dir = mkdtempSync(join(tmpdir(), "pm-fork-"));
    const dataDir = join(dir, "data");
    const forkUrl = `http://127.0.0.1:${deadPort}`;
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, FORK_URL: forkUrl, CHAIN_PORT: String(chainPort), PORT: String(port), DATA_DIR: dataDir };
      for (const k of ["NODE_TEST_CONTEXT", "RPC_URL", "FORK_BLOCK", "CHAIN_ID"]) delete env[k];
      const run = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts", "start.ts"), "--no-demo-agents"], {
        cwd: ROOT,
        env,
        encoding: "utf8",
        timeout: 60_000,
      });
      assert.equal(run.status, 1, `exit ${run.status}\n${run.stderr}`);
      const lines = run.stderr.trim().split("\n");
      assert.equal(lines.length, 1, `one line, got:\n${run.stderr}`);
      assert.match(lines[0]!, /^configuration: FORK_URL http:\/\/127\.0\.0\.1:\d+ does not answer JSON-RPC \(ECONNREFUSED\): start the node/);
      assert.ok(lines[0]!.includes(forkUrl));
      assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
      assert.equal(run.stdout, "");
      assert.equal(await rpcChainId(`http://127.0.0.1:${chainPort}`).catch(() => undefined), undefined, "no chain was started");
      assert.equal(existsSync(dataDir), false, "no data directory was made");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
