/** PM's participation release (docs/participation-release.md): a verified identity's lane, its claims. */
import type { AnyOperation } from "../../registry/types";
import { finalizeParticipationClaim } from "./finalize-claim";
import { getParticipationDistribution } from "./get-distribution";
import { getParticipationRelease } from "./get-state";
import { prepareParticipationClaim } from "./prepare-claim";

export const RELEASE_OPERATIONS: AnyOperation[] = [
  getParticipationRelease,
  prepareParticipationClaim,
  finalizeParticipationClaim,
  getParticipationDistribution,
];
