/** The in-memory exchange engine (see docs/engine.md). */
export { Engine } from "./engine";
export { SnapshotError, SNAPSHOT_VERSION } from "./snapshot";
export { LOT, MAX_ORDER_SIZE, MAX_BATCH } from "./validation";
export { FILL_ALLOWANCE_PERIOD_MS, allowancePeriod } from "./allowance";
export * from "./types";
export * from "./json";
export { takerFee, notionalFee, sharesFee } from "./fees";
