import { strict as assert } from "node:assert";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { OPERATIONS } from "../../operations";
import { Registry } from "../../registry/registry";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { currentDeployment, rulesInput } from "../markets/venue-documents";
import { buildRules } from "./rules";

const THRESHOLDS = [{ collateralAddress: "0x0000000000000000000000000000000000000000", thresholdWei: "10000000000" }];
const POLICY_HASH = "0x" + "ab".repeat(32);

describe("rules references", () => {
  it("names the spec's four references, each a GET route the service registers", () => {
    const registry = new Registry(OPERATIONS);
    const { references } = buildRules(rulesInput(currentDeployment({ CHAIN_ID: 8453, deploymentFile: join(tmpdir(), "no-deployment", "8453.json") })));
    assert.deepEqual(Object.keys(references).sort(), ["fees", "marketStates", "reputation", "resolutionState"]);
    for (const [name, path] of Object.entries(references)) {
      assert.match(path, /^\/[^/]/, `${name} is a path relative to the API base`);
      const concrete = API_BASE_PATH + path.replace(/\{address\}/g, "0x" + "ab".repeat(20));
      assert.ok(registry.methodsAt(concrete).includes("GET"), `${name}: no GET route at ${path}`);
    }
  });
});

describe("rules document", () => {
  it("publishes the values of relayer/lifecycle in the spec's shapes (the earlier document plus keeperWindowSeconds and economy.voting)", () => {
    const doc = buildRules({ highExposureThresholds: THRESHOLDS, thresholdPolicyHash: POLICY_HASH });
    assert.deepEqual(JSON.parse(JSON.stringify(doc)), EXPECTED);
  });
});

// The document as served before the values moved to relayer/lifecycle, with the two additive fields
// (resolution.creatorWindow.onMiss.keeperWindowSeconds, economy.voting.unverifiedStakePm). A changed value must
// be deliberate: change it here too.
const EXPECTED = {
  rulesVersion: "2026-08-28-staked-voting-v1",
  resolution: {
    creatorWindow: {
      startsAt: "openTime",
      deadlineAnchor: "closeTime",
      graceSecondsAfterClose: 172800,
      onMiss: {
        state: "creator_mia",
        bond: "creation_bond_slashed",
        seed: "not_slashed_residual_sweepable_after_finality",
        slashSplit: {
          miaKeeperBps: 1000,
          miaKeeperCapProtocolToken: 100,
          treasury: 0.5,
          voterPool: "remainder after keeper and treasury",
        },
        keeperWindowSeconds: 3600,
      },
    },
    challengeWindow: { seconds: 86400, bond: "equals the market's protocol creation bond" },
    humanVote: {
      sessions: "one",
      windowSeconds: 172800,
      windowStartsAt: "session open",
      deadline: "immutable",
      ballot: "one staked ballot is one equal vote; reputation does not affect the tally",
      quorum: {
        lowExposure: 3,
        highExposure: 7,
        exposureMetric: "market locked collateral in wei",
        highExposureThresholds: THRESHOLDS,
        thresholdPolicyHash: POLICY_HASH,
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
        stakePm: "10000000",
        ballotsPerVoter: 1,
        correctStake: "refunded plus a share of slashed stakes and the reward pool",
        incorrectStake: "slashed to the session's correct voters",
        nonBindingSession: "stake refunded in full",
      },
    },
    councilReview: {
      seconds: 86400,
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
    creatorMia: {
      miaKeeper: { shareBps: 1000, capProtocolToken: 100 },
      treasury: 0.5,
      voterPool: "remainder",
      seed: "not slashed",
    },
  },
  economy: { voting: { unverifiedStakePm: "10000000" } },
  actorModel: {
    creator: { resolves: "from openTime to creatorResolveBy", after: "CREATOR_WINDOW_ELAPSED" },
    challenger: {
      challenges: "from proposal creation to challengeBy",
      after: "CHALLENGE_WINDOW_CLOSED",
      eligibility: "any wallet that posts the bond",
    },
    voter: { votes: "any staked wallet, once per session" },
    council: { powers: "as in resolution.councilReview" },
  },
  deadlineFields: ["closeTime", "creatorResolveBy", "challengeBy", "humanVote.endsAt", "councilReviewEndsAt", "nextActionDeadline"],
  references: {
    fees: "/discover/fees",
    marketStates: "/discover/market-states",
    reputation: "/discover/reputation",
    resolutionState: "/discover/markets/{address}/resolution-state",
  },
};
