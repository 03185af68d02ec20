/**
 * The service crash test (issue 20): agents place orders over real HTTP, each with its own Idempotency-Key and
 * clientOrderId, while the service process is SIGKILLed mid-load and restarted on the same data. Then:
 *  - every ACKNOWLEDGED key, sent again with the same body, replays its stored answer exactly (status and body);
 *  - every key sent but never answered is sent again until answered: it either replays (its records committed) or
 *    executes now (nothing of it committed), and never both, so each logical order is in the journal exactly once.
 * The group commit releases an answer only after the tick holding its journal entry and idempotency record committed,
 * which is what makes both hold. Runs on PGlite, or on Postgres with DATABASE_URL (a schema of its own).
 */
import { strict as assert } from "node:assert";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, it } from "node:test";
import { openDatabase } from "../../relayer/db/client";
import { readAll } from "../../relayer/journal";

type Json = Record<string, any>;
const ROOT = join(__dirname, "..", "..");
const ACKS_BEFORE_KILL = 150;

interface Child {
  proc: ChildProcess;
  baseUrl: string;
  keys: string[];
}

function startChild(dir: string, schema: string, startedAt: number): Promise<Child> {
  const proc = spawn(process.execPath, ["--import", "tsx", join(__dirname, "service-crash-child.ts"), dir, schema, String(startedAt)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: process.env,
  });
  let stderr = "";
  proc.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    proc.once("exit", (code, signal) => reject(new Error(`service child exited (${code ?? signal}) before ready: ${stderr}`)));
    createInterface({ input: proc.stdout! }).on("line", (line) => {
      if (line.startsWith("READY ")) resolve({ proc, ...(JSON.parse(line.slice(6)) as { baseUrl: string; keys: string[] }) });
    });
  });
}

function exited(proc: ChildProcess): Promise<void> {
  return proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve() : new Promise((r) => proc.once("exit", () => r()));
}

interface Sent {
  apiKey: string;
  idem: string;
  clientOrderId: string;
  body: string;
  answer?: { status: number; json: Json };
}

async function place(baseUrl: string, s: Sent): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${baseUrl}/orderbook/place-order`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json", "idempotency-key": s.idem },
    body: s.body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

/** Sends until a final answer: a claim left in flight by the killed process answers 409 until its lease passes. */
async function placeUntilAnswered(baseUrl: string, s: Sent): Promise<{ status: number; json: Json }> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const a = await place(baseUrl, s);
    if (!(a.status === 409 && a.json.code === "IDEMPOTENCY_REQUEST_IN_FLIGHT") && a.status !== 503) return a;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`key ${s.idem} never answered`);
}

describe("crash test: SIGKILL of the service under HTTP load", () => {
  it("replays every acknowledged Idempotency-Key after a restart, and a retry of an unanswered one never doubles it", { timeout: 300_000 }, async () => {
    const url = process.env.DATABASE_URL;
    const dir = mkdtempSync(join(tmpdir(), "pm-svc-crash-"));
    const schema = url ? `svc_crash_${randomBytes(4).toString("hex")}` : "-";
    const startedAt = Date.now();
    let child = await startChild(dir, schema, startedAt);
    try {
      const list = (await fetch(`${child.baseUrl}/discover/markets?pricingModel=ORDERBOOK&pageSize=10`).then((r) => r.json())) as Json;
      const market = (list.markets as Json[])[0]!.address as string;
      const sent: Sent[] = [];
      let acked = 0;
      let killed = false;
      const first = child;
      const loops = first.keys.map(async (apiKey, a) => {
        for (let n = 0; !killed; n++) {
          const clientOrderId = `c${a}-${n}`;
          const body = JSON.stringify({
            market,
            outcome: 0,
            side: "buy",
            priceBps: String(100 + (n % 50)),
            size: "1000000",
            timeInForce: "GTC",
            clientOrderId,
          });
          const s: Sent = { apiKey, idem: randomUUID(), clientOrderId, body };
          sent.push(s);
          try {
            const answer = await place(first.baseUrl, s);
            if (killed) return; // an answer racing the kill is not counted as acknowledged: the test cannot know it arrived first
            assert.ok(answer.status >= 200 && answer.status < 300, `place-order answered ${answer.status}: ${JSON.stringify(answer.json)}`);
            s.answer = answer;
            if (++acked >= ACKS_BEFORE_KILL && !killed) {
              killed = true;
              first.proc.kill("SIGKILL");
            }
          } catch (err) {
            if (!killed) throw err;
            return; // the connection died with the process: this key is unanswered
          }
        }
      });
      await Promise.all(loops);
      await exited(first.proc);

      child = await startChild(dir, schema, startedAt);
      const acknowledged = sent.filter((s) => s.answer);
      const unanswered = sent.filter((s) => !s.answer);
      assert.ok(acknowledged.length >= ACKS_BEFORE_KILL);
      for (const s of acknowledged) {
        const again = await placeUntilAnswered(child.baseUrl, s);
        assert.equal(again.status, s.answer!.status, `acknowledged key ${s.idem} replays its status`);
        assert.deepEqual(again.json, s.answer!.json, `acknowledged key ${s.idem} replays its body`);
      }
      for (const s of unanswered) {
        const answer = await placeUntilAnswered(child.baseUrl, s);
        assert.ok(answer.status >= 200 && answer.status < 300, `retry of ${s.idem} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
        // A second retry must replay whatever the first retry answered.
        assert.deepEqual(await placeUntilAnswered(child.baseUrl, s), answer);
      }

      child.proc.kill("SIGTERM");
      await exited(child.proc);
      const db = await openDatabase(url ? { databaseUrl: url, schema } : { dataDir: join(dir, "data") });
      try {
        const placed = new Map<string, number>();
        for await (const e of readAll(db)) {
          const cmd = JSON.parse(e.command) as { type: string; clientOrderId?: string };
          if (cmd.type === "placeOrder" && cmd.clientOrderId) placed.set(cmd.clientOrderId, (placed.get(cmd.clientOrderId) ?? 0) + 1);
        }
        // The figures first (orders lost and doubled, as the other fault tests print them), then the check per order.
        const ordersLost = sent.filter((s) => !placed.has(s.clientOrderId)).length;
        const ordersDoubled = sent.filter((s) => (placed.get(s.clientOrderId) ?? 0) > 1).length;
        console.log(
          JSON.stringify({
            crash: "service-sigkill",
            acknowledged: acknowledged.length,
            unanswered: unanswered.length,
            journalOrders: placed.size,
            ordersLost,
            ordersDoubled,
          }),
        );
        for (const s of sent) assert.equal(placed.get(s.clientOrderId), 1, `order ${s.clientOrderId} is in the journal exactly once`);
      } finally {
        if (url) await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await db.close();
      }
    } finally {
      child.proc.kill("SIGKILL");
      await exited(child.proc);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
