/**
 * The guard (guard.cjs) run directly: it runs its command and exits as the command does while its supervisor is its
 * parent, and starts nothing once the supervisor is gone (docs/stack.md, "Stopping: no orphans").
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";

const GUARD = join(__dirname, "guard.cjs");

describe("the stack's guard", () => {
  const dir = mkdtempSync(join(tmpdir(), "pm-guard-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the guard over a command that writes `marker` and exits 7; the guard's parent is this process. */
  const run = (marker: string, supervisor: string) =>
    spawnSync(process.execPath, [GUARD, process.execPath, "-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran"); process.exitCode = 7`], {
      env: { ...process.env, STACK_GUARD_SUPERVISOR: supervisor },
      encoding: "utf8",
      timeout: 30_000,
    });

  it("runs the command and exits with its code while the supervisor is its parent", () => {
    const marker = join(dir, "ran-1");
    const r = run(marker, String(process.pid));
    assert.equal(r.status, 7, r.stderr);
    assert.ok(existsSync(marker), "the command ran");
  });

  it("starts nothing when its parent is no longer the supervisor that spawned it", () => {
    const marker = join(dir, "ran-2");
    const r = run(marker, String(process.pid + 1_000_000)); // a supervisor that is not our parent: gone and reparented
    assert.equal(r.status, 129, r.stderr);
    assert.match(r.stderr, /the stack's supervisor \(pid \d+\) is gone; not starting/);
    assert.equal(existsSync(marker), false, "the command never ran");
  });
});
