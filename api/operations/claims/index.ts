import type { AnyOperation } from "../../registry/types";
import { claimBatch } from "./batch";
import { getClaimsAvailable } from "./get-available";
import { listClaimReceipts } from "./receipts";
import { simulateClaims } from "./simulate";
import { sweepClaims } from "./sweep";
import { getCreatorFunds } from "./creator-funds";
import { collectCreatorFunds } from "./collect-creator-funds";
import { executeSweep } from "./sweep-execute";
import { executeSweepBatch } from "./sweep-batch";

export const CLAIM_OPERATIONS: AnyOperation[] = [
  getClaimsAvailable,
  claimBatch,
  listClaimReceipts,
  simulateClaims,
  sweepClaims,
  getCreatorFunds,
  collectCreatorFunds,
  executeSweep,
  executeSweepBatch,
];
