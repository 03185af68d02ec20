/**
 * The reputation leaderboard by role (spec "Reputation and profile operations": `role` creator / juror / trader /
 * overall, `period` 7d / 30d / all; the path and the scoring are ours, docs/leaderboard.md "Reputation leaderboard").
 *
 * A role's score is the account's percentile on that role's board of the period, over PM markets of every category:
 * the first of n ranked scores 100, the last 100 / n. The boards are the leaderboard's own: traders by P&L, creators
 * by markets ended unchallenged, jurors (voters) by rewards. `overall` is the three role scores summed over three, a
 * missing role counting 0: an account that trades, creates and judges well ranks above one that does one of them,
 * and no role can be skipped to look better in the others.
 */
import type { Address } from "viem";
import { creatorFigures, marketsKept, rankCreators, rankTraders, rankVoters, traderFigures, voterFigures } from "./boards";
import type { Generation, PeriodFigures } from "./generation";

export const BOARD_ROLES = ["overall", "creator", "juror", "trader"] as const;
export type BoardRole = (typeof BOARD_ROLES)[number];
const SCORED_ROLES = ["trader", "creator", "juror"] as const;
type ScoredRole = (typeof SCORED_ROLES)[number];
export const REPUTATION_BOARD_PERIODS = ["7d", "30d", "all"] as const;
export const ROLE_SCORE_METHOD = "role-percentile-v1" as const;

export interface RoleStanding {
  rank: number;
  rankedAmong: number;
  /** The percentile in basis points: 10,000 for the first of n, 10,000 / n (rounded down) for the last. */
  scoreBps: number;
}

export interface ReputationRow {
  address: Address;
  /** The role's score, or `overall`'s. */
  scoreBps: number;
  roles: Record<ScoredRole, RoleStanding | null>;
}

/** The percentile of rank `rank` (from 1) among `n`, in basis points. */
export const percentileBps = (rank: number, n: number): number => Math.floor(((n - rank + 1) * 10_000) / n);

type RoleBoards = Record<ScoredRole, readonly { address: Address }[]>;

/** The three role boards of a period over the kept markets, best first. */
function rankedBoards(p: PeriodFigures, kept: Parameters<typeof traderFigures>[1]): RoleBoards {
  return {
    trader: rankTraders(traderFigures(p, kept), "PNL"),
    creator: rankCreators(creatorFigures(p, kept)),
    juror: rankVoters(voterFigures(p, kept)),
  };
}

/** Every ranked account of the period for `role`, best first (ties by address). */
export function reputationRows(p: PeriodFigures, kept: Parameters<typeof traderFigures>[1], role: BoardRole, boards = rankedBoards(p, kept)): ReputationRow[] {
  const rows = new Map<Address, ReputationRow>();
  for (const r of SCORED_ROLES) {
    const board = boards[r];
    board.forEach(({ address }, i) => {
      const row = rows.get(address) ?? { address, scoreBps: 0, roles: { trader: null, creator: null, juror: null } };
      row.roles[r] = { rank: i + 1, rankedAmong: board.length, scoreBps: percentileBps(i + 1, board.length) };
      rows.set(address, row);
    });
  }
  return [...rows.values()]
    .filter((x) => role === "overall" || x.roles[role])
    .map((x) => ({
      ...x,
      scoreBps: role === "overall" ? Math.floor(SCORED_ROLES.reduce((s, r) => s + (x.roles[r]?.scoreBps ?? 0), 0) / 3) : (x.roles[role]?.scoreBps ?? 0),
    }))
    .sort((a, b) => b.scoreBps - a.scoreBps || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

export interface ReputationBoardQuery {
  role: BoardRole;
  period: (typeof REPUTATION_BOARD_PERIODS)[number];
  limit: number;
  offset: number;
}

const score = (bps: number) => (bps / 100).toFixed(2);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The answer of GET /reputation/leaderboard for a generation. */
/**
 * The role boards of a generation's period, computed once: summing every account's markets costs hundreds of
 * milliseconds on a large journal, and a reader pages and switches roles on the same generation.
 */
const boardsMemo = new WeakMap<PeriodFigures, RoleBoards>();

export function reputationBoardOf(gen: Generation, q: ReputationBoardQuery, stale: boolean) {
  const p = gen.periods[q.period];
  const kept = marketsKept(gen, { category: "ALL", collateral: "PM" });
  let boards = boardsMemo.get(p);
  if (!boards) boardsMemo.set(p, (boards = rankedBoards(p, kept)));
  const rows = reputationRows(p, kept, q.role, boards);
  const standing = (s: RoleStanding | null) => s && { rank: s.rank, rankedAmong: s.rankedAmong, score: score(s.scoreBps) };
  return {
    role: q.role,
    period: q.period,
    generation: gen.id,
    asOf: iso(gen.asOf) as string,
    stale,
    periodStart: iso(p.bounds.start),
    periodEnd: iso(p.bounds.end) as string,
    method: ROLE_SCORE_METHOD,
    total: rows.length,
    hasMore: q.offset + q.limit < rows.length,
    entries: rows.slice(q.offset, q.offset + q.limit).map((x, i) => ({
      rank: q.offset + i + 1,
      address: x.address,
      score: score(x.scoreBps),
      roles: { trader: standing(x.roles.trader), creator: standing(x.roles.creator), juror: standing(x.roles.juror) },
    })),
  };
}
