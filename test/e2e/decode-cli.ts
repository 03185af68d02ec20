/** The `decode` CLI as an auditor runs it (`npx decode <args>` in the repository), for the e2e tests. */
import { execFile } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** Runs `npx decode <args>` (bounded; never throws on a non-zero exit). */
export function decodeCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve) => {
    execFile("npx", ["--no-install", "decode", ...args], { cwd: ROOT, env, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
