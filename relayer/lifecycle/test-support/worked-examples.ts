/**
 * The worked examples of docs/resolution.md, run through the real commands and the clock, and the generated parts
 * of that page (the transitions table, the values, the examples). resolution-doc.test.ts checks the page against
 * these renderings and each example's net result against the numbers written here by hand, so neither can drift.
 */
import type { Address } from "viem";
import { dueTransitions } from "../due";
import { cancelMarket, castBallot, challenge, councilDecide, councilRestart, createLifecycle, declareMia, propose, type LifecycleResult } from "../operations";
import { BPS_DENOMINATOR, CHALLENGE_SPLIT, CREATOR_BOND, MIA_SLASH_SPLIT, PM_DECIMALS, PM_UNIT, QUORUM, VOTE_STAKE_UNITS, WINDOWS } from "../rules";
import type { MarketLifecycle, Verdict } from "../states";
import type { LifecycleStep } from "../steps";
import { MARKET_TRANSITIONS } from "../transitions";
import type { Transfer } from "../transfers";
import { CHALLENGER, CREATOR, DAY, HOUR, KEEPER, T0, VOTERS, must } from "./fixtures";

const CLOSE = T0 + DAY;
const Q = QUORUM.lowExposure;

export interface WorkedExample {
  title: string;
  /** What happens, in words. */
  story: string;
  /** Net PM per party after the market is final (positive: received), written by hand and checked. */
  expectedNet: Record<string, string>;
  steps: LifecycleStep[];
  market: MarketLifecycle;
}

/** A recorder: applies commands in order, keeping every step. */
class Life {
  steps: LifecycleStep[] = [];
  market: MarketLifecycle;
  constructor(seed: bigint | null) {
    const r = must(createLifecycle({ creator: CREATOR, outcomes: 2, openTime: T0, closeTime: CLOSE, seed, at: T0 }));
    this.market = r.market;
    this.steps.push(...r.steps);
  }
  do(f: (m: MarketLifecycle) => LifecycleResult): this {
    const r = must(f(this.market));
    this.market = r.market;
    this.steps.push(...r.steps);
    return this;
  }
  votes(outcomes: number[], at: number): this {
    outcomes.forEach((outcome, i) => this.do((m) => castBallot(m, { voter: VOTERS[i], outcome, at, quorum: Q })));
    return this;
  }
  until(at: number): this {
    return this.do((m) => ({ ok: true, ...dueTransitions(m, at, Q) }));
  }
}

const YES = 0;
const NO = 1;
const voteOpen = CLOSE + 2 * HOUR;
const voteEnd = voteOpen + WINDOWS.humanVoteWindowSeconds * 1000;
const proposeYes = (m: MarketLifecycle) => propose(m, { account: CREATOR, verdict: YES as Verdict, at: CLOSE + HOUR, quorum: Q });
const challengeIt = (m: MarketLifecycle) => challenge(m, { account: CHALLENGER, at: voteOpen, quorum: Q });
const END = T0 + 60 * DAY;

function example(title: string, story: string, expectedNet: Record<string, string>, life: Life): WorkedExample {
  return { title, story, expectedNet, steps: life.steps, market: life.market };
}

/** Every fund flow of the rules, each as one market's life. */
export function workedExamples(): WorkedExample[] {
  return [
    example(
      "Creator resolves, unchallenged",
      "An LMSR market seeded with 500 PM; the creator proposes YES an hour after close; nobody challenges.",
      { creator: "0" },
      new Life(500n * PM_UNIT).do(proposeYes).until(END),
    ),
    example(
      "Challenger right",
      "Seed 500 PM; the creator proposes YES; a challenger posts the bond; five voters: three NO, two YES; the council stays silent, so the unique result NO stands.",
      { creator: "-50", challenger: "+25", treasury: "+12.500001", v1: "+10.833333", v2: "+10.833333", v3: "+10.833333", v4: "-10", v5: "-10" },
      new Life(500n * PM_UNIT)
        .do(proposeYes)
        .do(challengeIt)
        .votes([NO, NO, NO, YES, YES], voteOpen + HOUR)
        .until(END),
    ),
    example(
      "Challenger wrong",
      "Seed 500 PM; the creator proposes YES; a challenger posts the bond; four voters: three YES, one NO; the council decides YES.",
      { creator: "+25", challenger: "-50", treasury: "+12.5", v1: "+7.5", v2: "+7.5", v3: "+7.5", v4: "-10" },
      new Life(500n * PM_UNIT)
        .do(proposeYes)
        .do(challengeIt)
        .votes([YES, YES, YES, NO], voteOpen + HOUR)
        .do((m) => councilDecide(m, { verdict: YES, at: voteEnd + HOUR, quorum: Q })),
    ),
    example(
      "Neutral void",
      "Seed 500 PM; proposal YES; challenged; four voters split two YES, two NO (a deadlock); the council stays silent.",
      { creator: "0", challenger: "0", v1: "0", v2: "0", v3: "0", v4: "0" },
      new Life(500n * PM_UNIT)
        .do(proposeYes)
        .do(challengeIt)
        .votes([YES, YES, NO, NO], voteOpen + HOUR)
        .until(END),
    ),
    example(
      "Creator missing, a keeper declares it",
      "Seed 2,000 PM (bond 200 PM); the creator never proposes; a keeper declares the miss 30 minutes into the keeper window; three voters vote YES; the council is silent.",
      { creator: "-200", keeper: "+20", treasury: "+100.000002", v1: "+26.666666", v2: "+26.666666", v3: "+26.666666" },
      new Life(2_000n * PM_UNIT)
        .do((m) => declareMia(m, { account: KEEPER, at: CLOSE + WINDOWS.creatorGraceSecondsAfterClose * 1000 + HOUR / 2, quorum: Q }))
        .votes([YES, YES, YES], CLOSE + 3 * DAY)
        .until(END),
    ),
    example(
      "Creator missing, no keeper",
      "An ORDERBOOK market (no seed: bond 10 PM); the creator never proposes and no keeper comes, so the clock opens the vote; two voters (below quorum); the council is silent.",
      { creator: "-10", treasury: "+10", v1: "0", v2: "0" },
      new Life(null)
        .until(CLOSE + (WINDOWS.creatorGraceSecondsAfterClose + WINDOWS.keeperWindowSeconds) * 1000)
        .votes([YES, NO], CLOSE + 3 * DAY)
        .until(END),
    ),
    example(
      "No correct voter",
      "Seed 500 PM; proposal YES; challenged; three voters vote NO; the council overrules them and decides YES (the session reached quorum and the market resolved to an outcome, so it binds).",
      { creator: "+25", challenger: "-50", treasury: "+55", v1: "-10", v2: "-10", v3: "-10" },
      new Life(500n * PM_UNIT)
        .do(proposeYes)
        .do(challengeIt)
        .votes([NO, NO, NO], voteOpen + HOUR)
        .do((m) => councilDecide(m, { verdict: YES, at: voteEnd + HOUR, quorum: Q })),
    ),
    example(
      "Council restart",
      "Seed 500 PM; proposal YES; challenged; three voters vote YES; the council restarts the vote for integrity; in the second session three voters vote NO and the council is silent.",
      { creator: "-50", challenger: "+25", treasury: "+12.500002", v1: "+4.166666", v2: "+4.166666", v3: "+4.166666" },
      new Life(500n * PM_UNIT)
        .do(proposeYes)
        .do(challengeIt)
        .votes([YES, YES, YES], voteOpen + HOUR)
        .do((m) => councilRestart(m, { at: voteEnd + HOUR, quorum: Q }))
        .votes([NO, NO, NO], voteEnd + 2 * HOUR)
        .until(END),
    ),
    example(
      "Operator cancels",
      "Seed 500 PM; the operator cancels the market before close.",
      { creator: "0" },
      new Life(500n * PM_UNIT).do((m) => cancelMarket(m, { at: CLOSE - HOUR, quorum: Q })),
    ),
  ];
}

const NAMES = new Map<string, string>([
  [CREATOR.toLowerCase(), "creator"],
  [CHALLENGER.toLowerCase(), "challenger"],
  [KEEPER.toLowerCase(), "keeper"],
  ...VOTERS.map((v, i) => [v.toLowerCase(), `v${i + 1}`] as [string, string]),
  ["bond_escrow", "bond escrow"],
  ["vote_escrow", "vote escrow"],
  ["treasury", "treasury"],
]);
const nameOf = (a: Address | string) => NAMES.get(a.toLowerCase()) ?? a;

/** PM units as a PM decimal ("12.5", "10.833333", "-50"). */
export function formatPm(units: bigint): string {
  const sign = units < 0n ? "-" : "";
  const abs = units < 0n ? -units : units;
  const frac = (abs % PM_UNIT).toString().padStart(PM_DECIMALS, "0").replace(/0+$/, "");
  return `${sign}${abs / PM_UNIT}${frac ? `.${frac}` : ""}`;
}

/** What each party (accounts and the treasury, not the escrows) received minus what it paid. */
export function netByParty(steps: readonly LifecycleStep[]): Map<string, bigint> {
  const net = new Map<string, bigint>();
  const add = (who: string, d: bigint) => {
    if (who === "bond_escrow" || who === "vote_escrow") return;
    net.set(nameOf(who), (net.get(nameOf(who)) ?? 0n) + d);
  };
  for (const t of steps.flatMap((s) => s.transfers)) {
    add(t.from, -t.amount);
    add(t.to, t.amount);
  }
  return net;
}

function when(at: number): string {
  if (at === T0) return "open";
  const d = at - CLOSE;
  const abs = Math.abs(d);
  const parts = [
    [DAY, "d"],
    [HOUR, "h"],
    [60_000, "min"],
    [1, "ms"],
  ] as const;
  let rest = abs;
  const text = parts.flatMap(([unit, label]) => {
    const n = Math.floor(rest / unit);
    rest -= n * unit;
    return n > 0 ? [`${n} ${label}`] : [];
  });
  return d === 0 ? "close" : `close ${d < 0 ? "−" : "+"} ${text.join(" ")}`;
}

function transferText(t: Transfer): string {
  const whose = "bondOf" in t && t.op !== "BOND_LOCK" && t.op !== "BOND_RETURN" ? ` (${nameOf(t.bondOf)}'s bond)` : "";
  return `${t.op} ${formatPm(t.amount)}: ${nameOf(t.from)} → ${nameOf(t.to)}${whose}`;
}

/** The examples' markets are binary: outcome 0 is YES, 1 is NO. */
const LABELS = ["YES", "NO"];

function stepState(s: LifecycleStep): string {
  const verdict = s.verdict === null || s.verdict === "void" ? "" : ` (${LABELS[s.verdict]})`;
  const moved = s.from === null ? `→ ${s.to}` : s.from === s.to ? s.to : `${s.from} → ${s.to}`;
  const counts = s.tally?.counts.map((c, i) => `${LABELS[i]} ${c}`).join(", ");
  const result = s.tally?.kind === "unique" ? `unique ${LABELS[s.tally.outcome]}` : s.tally?.kind.replace("_", " ");
  return `${moved}${verdict}${s.tally ? `; tally ${counts}: ${result}` : ""}`;
}

/** The examples as markdown: each with its story, its steps and the net result per party. */
export function renderExamples(examples: readonly WorkedExample[] = workedExamples()): string {
  return examples
    .map((ex, i) => {
      const rows = ex.steps.map((s) => `| ${when(s.at)} | ${s.via} | ${stepState(s)} | ${s.transfers.map(transferText).join("<br>") || "none"} |`);
      const net = [...netByParty(ex.steps)].map(([who, v]) => `${who} ${v > 0n ? "+" : ""}${formatPm(v)}`).join(", ");
      return [`### ${i + 1}. ${ex.title}`, "", ex.story, "", "| When | Step | State | Transfers (PM) |", "|---|---|---|---|", ...rows, "", `Net: ${net}.`].join(
        "\n",
      );
    })
    .join("\n\n");
}

/** The transitions table as markdown. */
export function renderTransitions(): string {
  const rows = MARKET_TRANSITIONS.map((t) => `| ${t.from} | ${t.to} | ${t.by} | \`${t.via}\` | ${t.condition} |`);
  return ["| From | To | By | Via | Condition |", "|---|---|---|---|---|", ...rows].join("\n");
}

/** The protocol values as markdown. */
export function renderValues(): string {
  const pct = (bps: number) => `${(bps * 100) / BPS_DENOMINATOR}%`;
  const hours = (s: number) => `${s / 3600} h`;
  const rows = [
    ["Creator grace after close (creatorResolveBy)", hours(WINDOWS.creatorGraceSecondsAfterClose)],
    ["Keeper window after creatorResolveBy", hours(WINDOWS.keeperWindowSeconds)],
    ["Challenge window (challengeBy)", hours(WINDOWS.challengeSeconds)],
    ["Vote session (humanVote.endsAt)", hours(WINDOWS.humanVoteWindowSeconds)],
    ["Council review (councilReviewEndsAt)", hours(WINDOWS.councilReviewSeconds)],
    [
      "Creation bond",
      `${pct(CREATOR_BOND.ratioOfSeedBps)} of the seed, at least ${formatPm(CREATOR_BOND.minUnits)} PM, at most ${formatPm(CREATOR_BOND.maxUnits)} PM; ORDERBOOK: ${formatPm(CREATOR_BOND.minUnits)} PM`,
    ],
    ["Challenge bond", "the creation bond"],
    ["Vote stake per ballot", `${formatPm(VOTE_STAKE_UNITS)} PM`],
    ["Quorum", `${QUORUM.lowExposure} ballots; ${QUORUM.highExposure} when the locked collateral is above the high-exposure threshold`],
    [
      "Losing bond after a challenge",
      `${pct(CHALLENGE_SPLIT.winnerBps)} to the winner, ${pct(CHALLENGE_SPLIT.voterPoolBps)} to the voter pool, ${pct(CHALLENGE_SPLIT.treasuryBps)} and the rounding to the treasury`,
    ],
    [
      "Missing creator's bond",
      `keeper ${pct(MIA_SLASH_SPLIT.keeperBps)} (at most ${formatPm(MIA_SLASH_SPLIT.keeperCapUnits)} PM), treasury ${pct(MIA_SLASH_SPLIT.treasuryBps)}, the voter pool the rest`,
    ],
  ];
  return ["| Value | |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join("\n");
}
