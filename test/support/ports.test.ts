/**
 * Test ports: two test processes reserving at once never get the same port, and a process's claims go with it.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { freePort, portReserver } from "./ports";

const LOCKS = join(tmpdir(), "agent-pm-test-ports");
const ROOT = join(__dirname, "..", "..");

/** Another test process: reserves `count` ports, prints them as one JSON line, and holds them until its stdin ends. */
function holder(count: number) {
  const script = `
    const { freePort } = require("./test/support/ports.ts");
    (async () => {
      const ports = [];
      for (let i = 0; i < ${count}; i++) ports.push(await freePort());
      process.stdout.write(JSON.stringify(ports) + "\\n");
      process.stdin.resume();
      process.stdin.on("end", () => process.exit(0));
    })();`;
  const child = spawn(process.execPath, ["--import", "tsx", "-e", script], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const ports = new Promise<number[]>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(JSON.parse(out));
    });
    child.once("exit", (code) => reject(new Error(`the holder exited (${code}) before printing its ports`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const release = () => {
    child.stdin.end();
    return exited;
  };
  return { ports, release };
}

describe("test ports", () => {
  it("two processes reserving at the same time get disjoint ports, below the ephemeral range, each lock held until its process exits", async () => {
    const other = holder(300);
    const mine: number[] = [];
    for (let i = 0; i < 300; i++) mine.push(await freePort());
    const theirs = await other.ports;
    assert.equal(new Set(mine).size, 300, "one process never gets a port twice");
    assert.equal(new Set(theirs).size, 300);
    assert.deepEqual(
      mine.filter((p) => theirs.includes(p)),
      [],
      "no port handed to both processes",
    );
    for (const p of [...mine, ...theirs]) assert.ok(p >= 20_000 && p < 32_768, `${p} is below Linux's ephemeral range`);
    assert.ok(
      theirs.every((p) => existsSync(join(LOCKS, String(p)))),
      "the other process's ports are claimed while it lives",
    );
    assert.equal(await other.release(), 0);
    assert.ok(
      theirs.every((p) => !existsSync(join(LOCKS, String(p)))),
      "its claims are gone once it exited",
    );
  });

  it("skips a port that something other than a test listens on, and a port another reserver holds; says so when none is left", async () => {
    // Three ports of the test range, in a lock directory of this test's own.
    const lockDir = mkdtempSync(join(tmpdir(), "ports-test-"));
    const first = await freePort(); // a free port whose two neighbours are very likely free too; checked below
    const range = { first, count: 3, lockDir, tries: 200 };
    const outside = createServer();
    await new Promise<void>((r) => outside.listen(first + 1, "127.0.0.1", r));
    try {
      const a = portReserver(range);
      const b = portReserver(range);
      const got = [await a(), await b()].sort();
      assert.deepEqual(got, [first, first + 2], "the listened-on port is skipped; each free one is handed out once");
      await assert.rejects(a(), /no free test port in/);
      assert.deepEqual(readdirSync(lockDir).sort(), [String(first), String(first + 2)], "no lock kept for the skipped port");
    } finally {
      await new Promise((r) => outside.close(r));
      rmSync(lockDir, { recursive: true, force: true });
    }
  });
});
