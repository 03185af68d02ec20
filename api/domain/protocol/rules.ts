/**
 * The protocol rules document (`GET /discover/rules`). Values not fixed by the contract are ours; they are the single
 * source for the resolution windows the service enforces. Bump RULES_VERSION whenever a published value changes.
 */
export const RULES_VERSION = "2026-08-28-staked-voting-v1";

/** The resolution windows in seconds, read by the market-state machine as well as published here. */
export const RESOLUTION_WINDOWS = {
  creatorGraceSecondsAfterClose: 48 * 3600,
  challengeSeconds: 24 * 3600,
  humanVoteWindowSeconds: 48 * 3600,
  councilReviewSeconds: 24 * 3600,
} as const;

export interface RulesInput {
  /** Collateral tokens with the locked-collateral threshold above which a market counts as high exposure. */
  highExposureThresholds: { collateralAddress: string; thresholdWei: string }[];
  /** 0x + 64 lowercase hex: hash of the signed release manifest's threshold policy. */
  thresholdPolicyHash: string;
  /** PM (smallest units) staked by an unverified voter. */
  unverifiedStakePm: string;
}

export function buildRules(input: RulesInput) {
  const w = RESOLUTION_WINDOWS;
  return {
    rulesVersion: RULES_VERSION,
    resolution: {
      creatorWindow: {
        startsAt: "openTime",
        deadlineAnchor: "closeTime",
        graceSecondsAfterClose: w.creatorGraceSecondsAfterClose,
        onMiss: {
          state: "creator_mia",
          bond: "creation_bond_slashed",
          seed: "not_slashed_residual_sweepable_after_finality",
          slashSplit: { miaKeeperBps: 1000, miaKeeperCapProtocolToken: 100, treasury: 0.5, voterPool: "remainder after keeper and treasury" },
        },
      },
      challengeWindow: { seconds: w.challengeSeconds, bond: "equals the market's protocol creation bond" },
      humanVote: {
        sessions: "one",
        windowSeconds: w.humanVoteWindowSeconds,
        windowStartsAt: "session open",
        deadline: "immutable",
        ballot: "one staked ballot is one equal vote; reputation does not affect the tally",
        quorum: {
          lowExposure: 3,
          highExposure: 7,
          exposureMetric: "market locked collateral in wei",
          highExposureThresholds: input.highExposureThresholds,
          thresholdPolicyHash: input.thresholdPolicyHash,
          source: "signed release manifest",
        },
        result: {
          uniqueHighestAtQuorum: "guidance default if the council is silent",
          tieAtQuorum: "deadlock",
          belowQuorum: "no quorum",
        },
        eligibility: {
          verifiedIdentityRequired: false,
          oneVotePerVerifiedIdentity: true,
          linkedAgentWalletsMayVoteForTheirIdentity: true,
          unlinkedAgentWalletsRefused: false,
          allBallotsStaked: true,
          stakePm: input.unverifiedStakePm,
          ballotsPerVoter: 1,
          correctStake: "refunded plus a share of slashed stakes and the reward pool",
          incorrectStake: "slashed to the session's correct voters",
          nonBindingSession: "stake refunded in full",
        },
      },
      councilReview: {
        seconds: w.councilReviewSeconds,
        source: "signed release manifest",
        can: ["decide any valid outcome after human vote", "void after human vote", "restart for integrity"],
        cannot: ["act before the human vote ends"],
        silence: "unique vote result, else neutral void",
      },
    },
    bonds: {
      creator: { ratioOfSeed: 0.1, minProtocolToken: 10, maxProtocolToken: 1000 },
      challenger: "equals the market's protocol creation bond",
    },
    fundFlows: {
      creatorResolvedUnchallenged: { bond: "returned", seed: "sweepable after finality" },
      challengerRight: { challenger: 0.5, creator: 0, treasury: 0.25, correctVoters: 0.25 },
      challengerWrong: { challenger: 0, creator: 0.5, treasury: 0.25, correctVoters: 0.25 },
      creatorMia: { miaKeeper: { shareBps: 1000, capProtocolToken: 100 }, treasury: 0.5, voterPool: "remainder", seed: "not slashed" },
    },
    actorModel: {
      creator: { resolves: "from openTime to creatorResolveBy", after: "CREATOR_WINDOW_ELAPSED" },
      challenger: { challenges: "from proposal creation to challengeBy", after: "CHALLENGE_WINDOW_CLOSED", eligibility: "any wallet that posts the bond" },
      voter: { votes: "any staked wallet, once per session" },
      council: { powers: "as in resolution.councilReview" },
    },
    deadlineFields: ["closeTime", "creatorResolveBy", "challengeBy", "humanVote.endsAt", "councilReviewEndsAt", "nextActionDeadline"],
    // The spec names these four references; reputation and per-market resolution state have no route of their own
    // here yet, so they point at the routes that carry them: the agent's `reputation` block of /me, and the market
    // detail (state, every deadline, nextActionDeadline). Every path is a served GET (rules.test.ts).
    references: {
      fees: "/discover/fees",
      marketStates: "/discover/market-states",
      reputation: "/me",
      resolutionState: "/discover/markets/{address}",
    },
  };
}
