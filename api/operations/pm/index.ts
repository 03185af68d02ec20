import type { AnyOperation } from "../../registry/types";
import { buyPm } from "./buy-pm";
import { listPmBundles } from "./get-bundles";

/** PM sold over x402 (docs/pm-purchase.md). */
export const PM_OPERATIONS: AnyOperation[] = [listPmBundles, buyPm];
