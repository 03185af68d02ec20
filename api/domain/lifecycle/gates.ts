/**
 * The reputation gates of the resolution acts (spec `tierGates.canChallenge`, `tierGates.canVote`). Every creator
 * tier opens both today (voting needs only a stake: "any staked wallet votes"), so the gate is the key's tier: an
 * execute key may challenge and vote; read-only and propose keys may not (the operations need execute anyway, so the
 * gate only shows in GET .../resolution-state `availableActions` for lower keys).
 */
import type { ServiceContext } from "../../context";
import type { KeyPrincipal } from "../auth/principal";

export interface ResolutionGates {
  canChallenge: boolean;
  canVote: boolean;
}

export async function resolutionGates(_ctx: ServiceContext, principal: KeyPrincipal | null): Promise<ResolutionGates> {
  const execute = principal !== null && principal.tier === "execute";
  return { canChallenge: execute, canVote: execute };
}
