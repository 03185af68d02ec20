/** Entry point of the service process (run by `npm start` as a child, or alone with `tsx api/main.ts`). */
import pino from "pino";
import { ConfigError, loadConfig } from "./config";
import { startService } from "./service";
import { watchParent } from "./platform/process/parent-watch";
import { DEMO_MARKET_MAKER_NAME, issueDemoKey } from "./domain/auth/local-agents";
import { grantMarketMakerAllocation } from "./domain/venue/market-maker-allocation";
import { containPostgresDriverCrash } from "../relayer/db/driver-guard";
import { acquireLeadership, instanceUrl, LOST_LEADERSHIP_EXIT } from "./leadership";
import { systemClock } from "../relayer/clock";

async function main(): Promise<void> {
  const config = loadConfig();
  // A Postgres restart must not kill the process through a known driver bug (relayer/db/driver-guard.ts).
  if (config.DATABASE_URL) containPostgresDriverCrash((msg) => console.error(msg));
  // With LEADER_ELECTION, only the advisory-lock holder opens the exchange; until then this process forwards to it.
  const log = pino({ level: config.LOG_LEVEL, base: { svc: "api" } });
  const leadership = config.LEADER_ELECTION
    ? await acquireLeadership(
        config,
        log,
        () => systemClock.now(),
        (port) => console.log(JSON.stringify({ event: "service-following", port })),
      )
    : null;
  const service = await startService(config, { publish: true, beforeListen: leadership?.beforeListen, replay: leadership?.replay });
  if (leadership) {
    await leadership.lead(instanceUrl(config, service.port), () => {
      // Another instance may own the exchange now: never write beside it (docs/scale-out.md).
      service.ctx.log.fatal("the exchange's lock session is gone: exiting so that only one instance writes");
      process.exit(LOST_LEADERSHIP_EXIT);
    });
  }
  // `npm start` (DEMO_AGENTS=true) prints a ready key of the demo agent; it is re-issued on every start (docs/auth.md).
  const demo = config.DEMO_AGENTS ? await issueDemoKey(service.ctx.db, service.ctx.clock) : null;
  // ...and one for the demo market maker it runs as an ordinary API client (docs/demo-agents.md).
  const maker = config.DEMO_AGENTS ? await issueDemoKey(service.ctx.db, service.ctx.clock, DEMO_MARKET_MAKER_NAME) : null;
  if (maker) await grantMarketMakerAllocation(service.ctx.db, service.ctx.clock, service.services.venue, maker);
  console.log(
    JSON.stringify({
      event: "service-ready",
      baseUrl: service.baseUrl,
      mcpUrl: service.mcpUrl,
      data: service.ctx.db.location,
      ...(leadership ? { leader: true, waitedMs: leadership.waitedMs } : {}),
      // What the start replayed: the whole journal, or a promoted follower only the entries after its warm replay.
      journal: service.services.venue.exchange.opened,
      ...(demo ? { demoKey: demo.apiKey } : {}),
      ...(maker ? { marketMakerKey: maker.apiKey } : {}),
    }),
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.ctx.log.info({ signal }, "stopping");
    await service.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  // Started by `npm start`: never outlive it, even if it is killed without a chance to stop us.
  if (config.STACK_CHILD) watchParent(() => void stop("parent exited"));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
