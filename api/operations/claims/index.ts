import type { AnyOperation } from "../../registry/types";
import { claimBatch } from "./batch";
import { getClaimsAvailable } from "./get-available";
import { listClaimReceipts } from "./receipts";
import { simulateClaims } from "./simulate";
import { sweepClaims } from "./sweep";

export const CLAIM_OPERATIONS: AnyOperation[] = [getClaimsAvailable, claimBatch, listClaimReceipts, simulateClaims, sweepClaims];
