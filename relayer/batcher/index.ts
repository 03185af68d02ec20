export * from "./batcher";
