/**
 * Public API of the decoder package: ledger rules (assets, state, root, proofs), the PMJ5 codec, the journal
 * state transition and the commitment chain, market-state codes, the ballot commitment and its replay check, and
 * the lifecycle summary of a batch. The relayer imports these, so its batches and the auditor's
 * replay run the same code.
 */
export * from "./assets";
export * from "./errors";
export { bigintReplacer, stringifyJson, toJsonValue, bigintParser, bigintFields, type BigintFieldOf } from "./json";
export type { Movement, LedgerEntry } from "./ledger/movement";
export { INT256_MIN, INT256_MAX } from "./ledger/movement";
export { LedgerState } from "./ledger/state";
export { accountProof, type AccountProof, type AccountProofLeaf } from "./ledger/account-proof";
export { leafHashOf } from "./merkle/leaf";
export { EMPTY_ROOT, buildLevels, rootOfLevels, proofOfIndex, merkleRootOf, type MerkleLevels } from "./merkle/tree";
export { loadKeccak256, type Keccak256 } from "./merkle/keccak";
export { processProof, verifyProof, commutativeKeccak256 } from "./merkle/verify";
export * from "./journal/ops";
export { movementsOf, applyOp, applyOps, matchNotional } from "./journal/movements";
export { encodePayload, decodePayload, PayloadBuilder, PMJ5_MAGIC, PMJ5_VERSION, type EncodeContext, type DecodedPayload } from "./journal/codec";
export { journalCommitmentOf, payloadHashOf, ZERO_HASH } from "./journal/commitment";
export * from "./journal/market-states";
export { ballotHashOf, type BallotPreimage } from "./journal/ballot";
export { lifecycleSummary, LIFECYCLE_PAYMENT_TYPES, type LifecyclePaymentType, type MarketLifecycleSummary } from "./journal/lifecycle-summary";
export { BallotBook, type BallotCheck, type BallotFailure, type BallotFailureCode } from "./replay/ballots";
