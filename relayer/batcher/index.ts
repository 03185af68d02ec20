export * from "./batcher";
export { LedgerChain, type ChainHead, type LandedBatch } from "./chain";
export { openBatcher, batcherOptionsFrom, type BatcherConfig } from "./config";
