/**
 * The protocol rules document (`GET /discover/rules`), built from the values of relayer/lifecycle/rules.ts (their one
 * home: the state machine and the fund-flow arithmetic read the same constants) in the spec's shapes: shares as
 * numbers 0..1, bond amounts as PM numbers, the vote stake as a PM-units string. The deployment-dependent parts
 * (high-exposure thresholds per collateral and their policy hash) arrive as input.
 */
import {
  BPS_DENOMINATOR,
  CHALLENGE_SPLIT,
  CREATOR_BOND,
  MIA_SLASH_SPLIT,
  PM_UNIT,
  QUORUM,
  RULES_VERSION,
  VOTE_STAKE_UNITS,
  WINDOWS,
} from "../../../relayer/lifecycle/rules";

export { RULES_VERSION };

/** The resolution windows in seconds (relayer/lifecycle/rules.ts). */
export const RESOLUTION_WINDOWS = WINDOWS;

export interface RulesInput {
  /** Collateral tokens with the locked-collateral threshold above which a market counts as high exposure. */
  highExposureThresholds: { collateralAddress: string; thresholdWei: string }[];
  /** 0x + 64 lowercase hex: hash of the signed release manifest's threshold policy. */
  thresholdPolicyHash: string;
}

/** A share in basis points as the spec's number 0..1 (exact for the rules' values: halves and quarters). */
const share = (bps: number) => bps / BPS_DENOMINATOR;
/** PM units as the spec's PM number (`minProtocolToken: 10` is 10 PM = 10_000_000 units). */
const pm = (units: bigint) => Number(units) / Number(PM_UNIT);

export function buildRules(input: RulesInput) {
  const w = WINDOWS;
  const stakePm = VOTE_STAKE_UNITS.toString();
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
          slashSplit: {
            miaKeeperBps: MIA_SLASH_SPLIT.keeperBps,
            miaKeeperCapProtocolToken: pm(MIA_SLASH_SPLIT.keeperCapUnits),
            treasury: share(MIA_SLASH_SPLIT.treasuryBps),
            voterPool: "remainder after keeper and treasury",
          },
          keeperWindowSeconds: w.keeperWindowSeconds,
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
          lowExposure: QUORUM.lowExposure,
          highExposure: QUORUM.highExposure,
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
          stakePm,
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
      creator: { ratioOfSeed: share(CREATOR_BOND.ratioOfSeedBps), minProtocolToken: pm(CREATOR_BOND.minUnits), maxProtocolToken: pm(CREATOR_BOND.maxUnits) },
      challenger: "equals the market's protocol creation bond",
    },
    fundFlows: {
      creatorResolvedUnchallenged: { bond: "returned", seed: "sweepable after finality" },
      challengerRight: {
        challenger: share(CHALLENGE_SPLIT.winnerBps),
        creator: 0,
        treasury: share(CHALLENGE_SPLIT.treasuryBps),
        correctVoters: share(CHALLENGE_SPLIT.voterPoolBps),
      },
      challengerWrong: {
        challenger: 0,
        creator: share(CHALLENGE_SPLIT.winnerBps),
        treasury: share(CHALLENGE_SPLIT.treasuryBps),
        correctVoters: share(CHALLENGE_SPLIT.voterPoolBps),
      },
      creatorMia: {
        miaKeeper: { shareBps: MIA_SLASH_SPLIT.keeperBps, capProtocolToken: pm(MIA_SLASH_SPLIT.keeperCapUnits) },
        treasury: share(MIA_SLASH_SPLIT.treasuryBps),
        voterPool: "remainder",
        seed: "not slashed",
      },
    },
    economy: { voting: { unverifiedStakePm: stakePm } },
    actorModel: {
      creator: { resolves: "from openTime to creatorResolveBy", after: "CREATOR_WINDOW_ELAPSED" },
      challenger: { challenges: "from proposal creation to challengeBy", after: "CHALLENGE_WINDOW_CLOSED", eligibility: "any wallet that posts the bond" },
      voter: { votes: "any staked wallet, once per session" },
      council: { powers: "as in resolution.councilReview" },
    },
    deadlineFields: ["closeTime", "creatorResolveBy", "challengeBy", "humanVote.endsAt", "councilReviewEndsAt", "nextActionDeadline"],
    // The spec's four references, each a served GET (rules.test.ts).
    references: {
      fees: "/discover/fees",
      marketStates: "/discover/market-states",
      reputation: "/discover/reputation",
      resolutionState: "/discover/markets/{address}/resolution-state",
    },
  };
}
