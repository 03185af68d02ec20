/**
 * Inputs of the discovery documents built in api/domain/protocol: the deployment artifact of the configured chain
 * (parsed again whenever the file changed: a deployment made after start-up shows at once), and the rule values that
 * depend on the deployment (the high-exposure threshold of each listed collateral; the value is in relayer/lifecycle).
 */
import { statSync } from "node:fs";
import { keccak256, toHex } from "viem";
import type { Config } from "../../config";
import { readDeployment, type Deployment } from "../protocol/deployment";
import type { RulesInput } from "../protocol/rules";
import { canonicalJson } from "../../platform/hashing/canonical-json";
import { HIGH_EXPOSURE_THRESHOLD_UNITS } from "../../../relayer/lifecycle/rules";

/** The deployment of the configured chain, or an empty one (no contracts, no collaterals) before any deployment. */
export function currentDeployment(config: Pick<Config, "CHAIN_ID" | "deploymentFile">): Deployment {
  const file = config.deploymentFile;
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return { chainId: config.CHAIN_ID, contracts: {}, collaterals: [], routerInterface: null };
  // Every proposal and several discovery reads ask for it: a stat instead of reading and validating the file each
  // time. A rewrite (a new deployment, the file replaced by a rename) changes its mtime, size or inode.
  const version = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  const known = parsedDeployments.get(file);
  if (known?.version === version) return known.deployment;
  const deployment = readDeployment(file);
  parsedDeployments.set(file, { version, deployment });
  return deployment;
}

/** The last parse of each deployment file, with the file's version it was read at. Callers only read it. */
const parsedDeployments = new Map<string, { version: string; deployment: Deployment }>();

const ZERO = "0x0000000000000000000000000000000000000000";

export function rulesInput(d: Deployment): RulesInput {
  const tokens = [d.contracts.PlayMoney?.address, ...d.collaterals.map((c) => c.token)].filter((a): a is `0x${string}` => Boolean(a));
  const unique = [...new Set(tokens.map((t) => t.toLowerCase()))];
  const highExposureThresholds = (unique.length > 0 ? unique : [ZERO]).map((collateralAddress) => ({
    collateralAddress,
    thresholdWei: HIGH_EXPOSURE_THRESHOLD_UNITS.toString(),
  }));
  return {
    highExposureThresholds,
    // The hash commits to the exact thresholds published, so a client can tell when the policy changed.
    thresholdPolicyHash: keccak256(toHex(canonicalJson(highExposureThresholds))).toLowerCase(),
  };
}
