/**
 * The service's clock at start (api/service.ts): on a local chain, the base clock plus the offset stored by earlier
 * time advances, so a restart never goes back in time; a fresh local node that is behind it is brought up to it.
 * On a live chain the clock is the base clock, with no offset to move.
 */
import type { Logger } from "pino";
import { type Clock, offsetClock } from "../../../relayer/clock";
import type { Database } from "../../../relayer/db/client";
import type { Config } from "../../config";
import { catchUpChainClock } from "./chain-time";
import { readClockOffset } from "./clock-store";
import { isLocalChain } from "../../../relayer/local-chain";

export async function openServiceClock(config: Config, db: Database, base: Clock, log: Logger): Promise<Clock> {
  const offset = await readClockOffset(db);
  if (!isLocalChain(config)) {
    if (offset > 0) log.warn({ offsetMs: offset, rpcUrl: config.rpcUrl }, "a stored dev-clock offset is ignored: the chain is not local");
    return base;
  }
  const clock = offsetClock(base, offset);
  if (offset > 0) {
    try {
      const moved = await catchUpChainClock(config.rpcUrl, clock.now());
      log.info({ offsetMs: offset, chainMovedSeconds: moved }, "service clock resumes at its moved time");
    } catch (err) {
      log.warn({ err: (err as Error).message }, "the chain's clock could not be brought up to the service clock");
    }
  }
  return clock;
}
