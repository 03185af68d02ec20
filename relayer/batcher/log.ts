/** Where the batcher and its start (./tip.ts) report: the service's logger, or nothing. */
export interface BatcherLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
