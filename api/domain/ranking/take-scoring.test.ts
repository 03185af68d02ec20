/**
 * The analysts' scoring method on forecasts written by hand: Brier scores and the market's, skill, the cohort's order
 * (skill, then Brier, then count, then account; only from MIN_SCORED_TAKES_TO_RANK), and calibration buckets.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { calibrationOf, cohortOf, figuresOf, MIN_SCORED_TAKES_TO_RANK, squaredError, type ScoredTake } from "./take-scoring";

const take = (account: string, probabilityPpm: number, marketPpm: number, yes: boolean): ScoredTake => ({
  account,
  agentId: `agent-${account}`,
  name: account,
  marketAddress: "0xm",
  chainId: 8453,
  title: "m",
  probabilityPpm,
  marketPpm,
  yes,
  takenAt: 1,
  resolvedAt: 2,
});
const times = (n: number, t: ScoredTake) => Array.from({ length: n }, () => t);

describe("take scoring", () => {
  it("scores a forecast of YES by its squared error, exactly, in ppm²", () => {
    assert.equal(squaredError(800_000, true), 40_000_000_000n); // (0.8 − 1)² = 0.04
    assert.equal(squaredError(800_000, false), 640_000_000_000n); // 0.64
    assert.equal(squaredError(1_000_000, true), 0n);
    assert.equal(squaredError(0, true), 1_000_000_000_000n);
  });

  it("prints the means and the skill over the market to six decimals, rounded toward zero", () => {
    // 0.8 on a YES market showing 0.45, and 0.3 on a NO market showing 0.5.
    const { total } = cohortOf([take("a", 800_000, 450_000, true), take("a", 300_000, 500_000, false)]);
    assert.deepEqual(figuresOf(total), { scoredTakes: 2, meanBrier: "0.065", marketMeanBrier: "0.27625", skill: "0.21125" });
    const { total: worse } = cohortOf([take("b", 200_000, 450_000, true), take("b", 900_000, 500_000, false)]);
    assert.deepEqual(figuresOf(worse), { scoredTakes: 2, meanBrier: "0.725", marketMeanBrier: "0.27625", skill: "-0.44875" });
    // A third: 1/3 of 0.01 is 0.003333…, printed 0.003333.
    const { total: third } = cohortOf([take("c", 900_000, 900_000, true), take("c", 1_000_000, 1_000_000, true), take("c", 1_000_000, 1_000_000, true)]);
    assert.equal(figuresOf(third).meanBrier, "0.003333");
    assert.deepEqual(figuresOf({ n: 0, take: 0n, market: 0n }), { scoredTakes: 0, meanBrier: null, marketMeanBrier: null, skill: null });
  });

  it("ranks only analysts with enough scored takes, by skill, then their own Brier, then count, then account", () => {
    const n = MIN_SCORED_TAKES_TO_RANK;
    const takes = [
      ...times(n, take("0xbeat", 900_000, 600_000, true)), // skill (0.16 − 0.01) = 0.15
      ...times(n + 1, take("0xsame", 600_000, 600_000, true)), // skill 0, Brier 0.16
      ...times(n, take("0xsharp", 990_000, 990_000, true)), // skill 0, Brier 0.0001: first of the two at 0
      ...times(n, take("0xlost", 100_000, 600_000, true)), // skill < 0
      ...times(n - 1, take("0xfew", 1_000_000, 0, true)), // the best scores, too few takes
      ...times(n, take("0xaaaa", 600_000, 600_000, true)), // as 0xsame but fewer takes: after it
    ];
    const { members, ranked, total } = cohortOf(takes);
    assert.deepEqual(
      ranked.map((m) => m.account),
      ["0xbeat", "0xsharp", "0xsame", "0xaaaa", "0xlost"],
    );
    assert.deepEqual(
      ranked.map((m) => m.rank),
      [1, 2, 3, 4, 5],
    );
    assert.equal(members.get("0xfew")?.rank, null);
    assert.equal(members.size, 6);
    assert.equal(total.n, takes.length);
  });

  it("buckets forecasts for calibration: each bucket's mean forecast and how often YES came", () => {
    const c = calibrationOf([
      take("a", 0, 500_000, false),
      take("a", 99_999, 500_000, true),
      take("a", 700_000, 500_000, true),
      take("a", 750_000, 500_000, false),
      take("a", 1_000_000, 500_000, true),
    ]);
    assert.equal(c.length, 10);
    assert.deepEqual(c[0], { from: "0", to: "0.1", forecasts: 2, meanProbability: "0.049999", observedYes: "0.5" });
    assert.deepEqual(c[7], { from: "0.7", to: "0.8", forecasts: 2, meanProbability: "0.725", observedYes: "0.5" });
    assert.deepEqual(c[9], { from: "0.9", to: "1", forecasts: 1, meanProbability: "1", observedYes: "1" });
    assert.deepEqual(c[4], { from: "0.4", to: "0.5", forecasts: 0, meanProbability: null, observedYes: null });
  });
});
