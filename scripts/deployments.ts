/**
 * Typed loader of `deployments/<chainId>.json` as written by scripts/deploy.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DeploymentRecord } from "./deploy";

/** Default directory of deployment artifacts (repository root deployments/). */
export const DEFAULT_DEPLOYMENTS_DIR = join(__dirname, "..", "deployments");

/** Reads the deployment of `chainId`; throws with the file name when it is missing or lacks a contract. */
export function loadDeployment(chainId: number, dir: string = DEFAULT_DEPLOYMENTS_DIR): DeploymentRecord {
  const file = join(dir, `${chainId}.json`);
  const record = JSON.parse(readFileSync(file, "utf8")) as DeploymentRecord;
  for (const name of ["CommittedLedger", "PlayMoney", "OutcomeToken", "BinaryFactory", "TernaryFactory", "TestUSDC", "RouterImplementation"]) {
    if (!record.contracts?.[name]) throw new Error(`${file} has no contract ${name}: redeploy with scripts/deploy.ts`);
  }
  return record;
}
