/** The `decode` CLI as an auditor runs it (`npx decode <args>` in the repository), for the e2e tests. */
import { execFile } from "node:child_process";
import { join } from "node:path";
import type { Json } from "./client";

const ROOT = join(__dirname, "..", "..");

/** Runs `npx decode <args>` with `env` added (bounded; never throws on a non-zero exit). */
export function decodeCli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, ...extraEnv };
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve) => {
    execFile("npx", ["--no-install", "decode", ...args], { cwd: ROOT, env, timeout: 180_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A step for `until` (./receivers.ts): lists the confirmed batches after nonce `after`, oldest first, decodes each once
 * with `decode`, and answers the first whose operations hold `account`'s RESOLUTION_PAYOUT (undefined while none
 * does, or while an older batch is not confirmed yet). `checked` names the batches already decoded, for the timeout.
 */
export function payoutBatchFinder(opts: { batches: () => Promise<Json[]>; after: bigint; account: string; decode: (txHash: string) => Promise<Json> }) {
  const checked = new Set<string>();
  const step = async (): Promise<{ batch: Json; decoded: Json; payout: Json } | undefined> => {
    const newer = (await opts.batches()).filter((b) => BigInt(b.nonce) > opts.after).sort((x, y) => Number(BigInt(x.nonce) - BigInt(y.nonce)));
    for (const b of newer) {
      if (b.status !== "confirmed") return undefined;
      if (checked.has(b.nonce)) continue;
      checked.add(b.nonce);
      const decoded = await opts.decode(b.txHash);
      const payout = (decoded.operations as Json[]).find(
        (o) => o.type === "RESOLUTION_PAYOUT" && String(o.account).toLowerCase() === opts.account.toLowerCase(),
      );
      if (payout) return { batch: b, decoded, payout };
    }
    return undefined;
  };
  return { step, checked: () => [...checked] };
}
