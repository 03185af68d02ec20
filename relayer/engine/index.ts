/** The in-memory exchange engine (see docs/engine.md). */
export { Engine, LOT, MAX_ORDER_SIZE, MAX_BATCH, type Applied, type LmsrQuote } from "./engine";
export * from "./types";
export * from "./command-json";
export { takerFee, notionalFee, sharesFee } from "./fees";
