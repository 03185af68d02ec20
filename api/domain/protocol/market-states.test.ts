import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { MARKET_TRANSITIONS as LIFECYCLE_TRANSITIONS } from "../../../relayer/lifecycle/transitions";
import { buildMarketStates, isTransitionAllowed, MARKET_STATES, MARKET_TRANSITIONS } from "./market-states";
import { buildRules, RULES_VERSION } from "./rules";

describe("market-state graph", () => {
  it("reaches a terminal state from every state and leaves none", () => {
    const terminal = new Set(["resolved", "void"]);
    for (const s of MARKET_STATES) {
      const seen = new Set<string>([s]);
      const queue = [s as string];
      while (queue.length > 0) {
        const from = queue.shift();
        for (const t of MARKET_TRANSITIONS) {
          if (t.from !== from || seen.has(t.to)) continue;
          seen.add(t.to);
          queue.push(t.to);
        }
      }
      assert.ok(
        [...seen].some((x) => terminal.has(x)),
        `${s} cannot reach a terminal state`,
      );
    }
    for (const t of MARKET_TRANSITIONS) assert.ok(!terminal.has(t.from), `terminal ${t.from} has an exit`);
  });
  it("allows only listed transitions and lists a market's next steps", () => {
    assert.equal(isTransitionAllowed("open", "closed"), true);
    assert.equal(isTransitionAllowed("closed", "human_voting"), false, "a missed window goes through creator_mia");
    assert.equal(isTransitionAllowed("resolved", "open"), false);
    const doc = buildMarketStates({ address: "0x0000000000000000000000000000000000000001", chainId: 8453, state: "closed" });
    assert.deepEqual(doc.market?.next.map((n) => n.to).sort(), ["creator_mia", "creator_proposal", "void"]);
    const mia = buildMarketStates({ address: "0x0000000000000000000000000000000000000001", chainId: 8453, state: "creator_mia" });
    assert.deepEqual(
      mia.market?.next.map((n) => [n.to, n.by]),
      [
        ["human_voting", "keeper"],
        ["human_voting", "clock"],
      ],
    );
  });
  it("publishes the state machine's table row for row in the document's shape", () => {
    const doc = buildMarketStates();
    assert.deepEqual(doc.states, MARKET_STATES);
    assert.ok(doc.states.includes("creator_mia"));
    assert.deepEqual(doc.terminal, ["resolved", "void"]);
    assert.equal(doc.transitions.length, LIFECYCLE_TRANSITIONS.length);
    doc.transitions.forEach((t, i) => {
      assert.deepEqual(Object.keys(t).sort(), ["by", "condition", "from", "to"]);
      const row = LIFECYCLE_TRANSITIONS[i];
      assert.deepEqual(t, { from: row.from, to: row.to, by: row.by, condition: row.condition });
    });
  });
});

describe("rules document", () => {
  it("carries the contract's rulesVersion and the deadline fields", () => {
    const r = buildRules({ highExposureThresholds: [], thresholdPolicyHash: "0x" + "0".repeat(64) });
    assert.equal(r.rulesVersion, RULES_VERSION);
    assert.equal(RULES_VERSION, "2026-08-28-staked-voting-v1");
    assert.ok(r.resolution.creatorWindow.graceSecondsAfterClose > 0);
    assert.deepEqual(r.deadlineFields, ["closeTime", "creatorResolveBy", "challengeBy", "humanVote.endsAt", "councilReviewEndsAt", "nextActionDeadline"]);
  });
});
