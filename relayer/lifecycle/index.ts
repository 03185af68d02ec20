/**
 * The market-state machine and the protocol's arithmetic (docs/lifecycle.md, docs/resolution.md). Pure: no clock,
 * no I/O, no randomness; time (epoch ms) and the quorum arrive as arguments, refusals are values.
 */
export * from "./rules";
export * from "./states";
export * from "./transitions";
export * from "./deadlines";
export * from "./refusals";
export * from "./guards";
export * from "./tally";
export * from "./transfers";
export * from "./fund-flows";
export * from "./vote-settlement";
export type { LifecycleStep } from "./steps";
export { dueTransitions } from "./due";
export * from "./operations";
