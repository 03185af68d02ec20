/**
 * Child process of the service crash test (service-crash.test.ts): the whole agent API on the given data, with a clock
 * that runs SPEED times real time from a start instant the parent fixes (so it stays continuous across a restart and
 * an in-flight idempotency lease passes in a test-sized wait). On its first start it creates the agents and keeps
 * their keys in `<dir>/agents.json`; every start prints one line: READY <json {baseUrl, keys}>.
 *
 *   tsx test/faults/service-crash-child.ts <dir> <schema | -> <startedAtMs>
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../api/config";
import { createLocalAgent } from "../../api/domain/auth/local-agents";
import { startService } from "../../api/service";
import type { Clock } from "../../relayer/clock";

const AGENTS = 8;
const SPEED = 20;

async function main() {
  const [dir, schema, startedAtArg] = process.argv.slice(2);
  const startedAt = Number(startedAtArg);
  const clock: Clock = { now: () => 1_800_000_000_000 + (Date.now() - startedAt) * SPEED };
  const config = loadConfig({
    PORT: "0",
    DATA_DIR: join(dir, "data"),
    DEPLOYMENTS_DIR: join(dir, "deployments"),
    LOG_LEVEL: "silent",
    DATABASE_URL: process.env.DATABASE_URL,
    ...(schema !== "-" ? { DATABASE_SCHEMA: schema } : {}),
    RATE_LIMIT_WRITE_PER_MINUTE: "1000000",
    RATE_LIMIT_READ_PER_MINUTE: "1000000",
    RATE_LIMIT_IP_PER_MINUTE: "1000000",
  });
  const svc = await startService(config, { publish: false, clock });
  const keysFile = join(dir, "agents.json");
  if (!existsSync(keysFile)) {
    const agents = [];
    for (let i = 0; i < AGENTS; i++) agents.push(await createLocalAgent(svc.ctx.db, clock, { name: `crash-${i}` }));
    writeFileSync(keysFile, JSON.stringify(agents.map((a) => a.apiKey)));
  }
  const keys = JSON.parse(readFileSync(keysFile, "utf8")) as string[];
  process.stdout.write(`READY ${JSON.stringify({ baseUrl: svc.baseUrl, keys })}\n`);
  process.on("SIGTERM", () => void svc.close().then(() => process.exit(0)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
