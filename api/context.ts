import type { Logger } from "pino";
import type { Config } from "./config";
import type { Database } from "../relayer/db/client";
import type { Clock } from "../relayer/clock";

/** What every part of the service process shares: built once in `startService`, passed down explicitly. */
export interface ServiceContext {
  config: Config;
  db: Database;
  clock: Clock;
  log: Logger;
}
