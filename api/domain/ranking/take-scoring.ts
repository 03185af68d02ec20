/**
 * Analysts' scoring (the spec's "scoring record by address" and "scoring cohort"; paths and method ours,
 * docs/leaderboard.md "Analysts' scoring"). A reader weighing the AI analysts' odds on a market wants to know whose
 * odds have been worth listening to, and whether they said more than the market already did.
 *
 * Method `take-brier-v1`: every analyst take that is for a market's resolution (no `horizon`) on a binary market
 * that resolved is one scored forecast. Its Brier score is (p − o)², p the take's probability of YES as it stood when
 * the market closed (takes are refused once a market is not open, so the stored take is the last one), o 1 for YES
 * and 0 for NO. The market's own forecast is scored the same way: its displayed YES price when the take was
 * published (its last catalog trade at or before that instant, the complement for a trade of NO; the uniform prior
 * 0.5 before any trade). `skill` is the market's mean Brier minus the analyst's: positive when the analyst's odds
 * beat the price it could read when it spoke, so a late take that repeats a settled price gains nothing.
 *
 * Exact integers throughout: probabilities in parts per million, squared errors in ppm², rounded down to six
 * decimals only when printed. Void markets and takes with a horizon are not scored (counted apart).
 */
import { formatUnits } from "viem";
import type { SqlRunner } from "../../../relayer/db/client";
import { perDatabase } from "../../../relayer/db/per-database";
import { ledgerAccountOf } from "../auth/ledger-account";
import type { PeriodBounds } from "./periods";

export const SCORING_METHOD = "take-brier-v1" as const;
/** Scores over fewer forecasts say little: an analyst is ranked from this many scored takes in the period. */
export const MIN_SCORED_TAKES_TO_RANK = 5;
/** Calibration buckets: forecasts of YES in [0, 0.1), [0.1, 0.2), ... [0.9, 1]. */
const BUCKETS = 10;
const PPM = 1_000_000;
const UNIFORM_PPM = 500_000;

/** One scored forecast. */
export interface ScoredTake {
  account: string;
  agentId: string;
  name: string;
  marketAddress: string;
  chainId: number;
  title: string;
  /** The take's probability of YES, ppm. */
  probabilityPpm: number;
  /** The market's displayed YES price when the take was published, ppm. */
  marketPpm: number;
  /** True when the market resolved YES. */
  yes: boolean;
  takenAt: number;
  resolvedAt: number;
}

/** Squared error of a forecast of YES (ppm) against the outcome, in ppm². */
export const squaredError = (ppm: number, yes: boolean): bigint => {
  const d = BigInt(ppm - (yes ? PPM : 0));
  return d * d;
};

/** Sums of the squared errors over n forecasts, the analyst's and the market's. */
export interface ScoreSums {
  n: number;
  take: bigint;
  market: bigint;
}

const zeroSums = (): ScoreSums => ({ n: 0, take: 0n, market: 0n });

function add(s: ScoreSums, t: ScoredTake): void {
  s.n++;
  s.take += squaredError(t.probabilityPpm, t.yes);
  s.market += squaredError(t.marketPpm, t.yes);
}

/** A mean of ppm² sums as a decimal in [0, 1] (or [−1, 1] for a difference), six places, rounded toward zero. */
const mean6 = (sum: bigint, n: number): string => formatUnits(sum / (BigInt(n) * BigInt(PPM)), 6);

/** The printed figures of a set of forecasts; null means when there are none. */
export function figuresOf(s: ScoreSums) {
  if (s.n === 0) return { scoredTakes: 0, meanBrier: null, marketMeanBrier: null, skill: null };
  return { scoredTakes: s.n, meanBrier: mean6(s.take, s.n), marketMeanBrier: mean6(s.market, s.n), skill: mean6(s.market - s.take, s.n) };
}

/** The figures of an analyst with no scored take. */
export const UNSCORED = Object.freeze(figuresOf(zeroSums()));

/** How often YES happened for the forecasts of each probability bucket (a well-calibrated 70% comes true 70% of the time). */
export function calibrationOf(takes: readonly ScoredTake[]) {
  const buckets = Array.from({ length: BUCKETS }, () => ({ n: 0, ppm: 0, yes: 0 }));
  for (const t of takes) {
    const b = buckets[Math.min(BUCKETS - 1, Math.floor((t.probabilityPpm * BUCKETS) / PPM))];
    b.n++;
    b.ppm += t.probabilityPpm;
    if (t.yes) b.yes++;
  }
  return buckets.map((b, i) => ({
    from: formatUnits(BigInt(i), 1),
    to: formatUnits(BigInt(i + 1), 1),
    forecasts: b.n,
    meanProbability: b.n === 0 ? null : formatUnits(BigInt(Math.floor(b.ppm / b.n)), 6),
    observedYes: b.n === 0 ? null : formatUnits(BigInt(Math.floor((b.yes * PPM) / b.n)), 6),
  }));
}

/** One analyst of the cohort: its sums, and its rank when it has enough scored takes. */
export interface CohortMember {
  account: string;
  agentId: string;
  name: string;
  sums: ScoreSums;
  rank: number | null;
}

/**
 * The cohort of a period: every analyst with a scored take, ranked (when it has at least MIN_SCORED_TAKES_TO_RANK)
 * by skill, then by its own mean Brier (lower first), then by more scored takes, then by account.
 */
export function cohortOf(takes: readonly ScoredTake[]) {
  const total = zeroSums();
  const members = new Map<string, CohortMember>();
  for (const t of takes) {
    add(total, t);
    let m = members.get(t.account);
    if (!m) members.set(t.account, (m = { account: t.account, agentId: t.agentId, name: t.name, sums: zeroSums(), rank: null }));
    add(m.sums, t);
  }
  // Means compared exactly: a/n against b/k as a·k against b·n.
  const skillCmp = (a: ScoreSums, b: ScoreSums) => cmp((b.market - b.take) * BigInt(a.n), (a.market - a.take) * BigInt(b.n));
  const brierCmp = (a: ScoreSums, b: ScoreSums) => cmp(a.take * BigInt(b.n), b.take * BigInt(a.n));
  const ranked = [...members.values()]
    .filter((m) => m.sums.n >= MIN_SCORED_TAKES_TO_RANK)
    .sort((a, b) => skillCmp(a.sums, b.sums) || brierCmp(a.sums, b.sums) || b.sums.n - a.sums.n || (a.account < b.account ? -1 : 1));
  ranked.forEach((m, i) => {
    m.rank = i + 1;
  });
  return { total, members, ranked };
}

const cmp = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

type Row = Record<string, unknown>;

/**
 * Every scored take of markets resolved within the period, newest resolution first. The market's price is read per
 * take from its trades (index market_trades_recent). A period that runs at `now` holds what resolved at `now`.
 */
async function scoredTakes(db: SqlRunner, bounds: PeriodBounds, now: number): Promise<ScoredTake[]> {
  const rows = await db.query<Row>(
    `SELECT t.agent_id, a.name, a.ledger_account, a.wallet_address, t.probability_ppm, t.updated_at, m.address, m.chain_id, m.title,
            m.resolved_outcome, m.resolved_at,
            (SELECT CASE WHEN x.outcome = 0 THEN x.price_ppm ELSE ${PPM} - x.price_ppm END
               FROM market_trades x WHERE x.market_pk = m.id AND x.at <= t.updated_at
              ORDER BY x.at DESC, x.id DESC LIMIT 1) AS market_ppm
       FROM content_takes t
       JOIN api_agents a ON a.id = t.agent_id
       JOIN markets m ON m.id = t.market_pk
      WHERE t.horizon IS NULL AND m.state = 'resolved' AND m.resolved_outcome IS NOT NULL
        AND m.resolved_at >= $1 AND m.resolved_at < $2
      ORDER BY m.resolved_at DESC, m.id DESC, t.seq`,
    [bounds.start ?? 0, bounds.end === now ? now + 1 : bounds.end],
  );
  return rows.map((r) => ({
    account: ((r.ledger_account as string | null) ?? ledgerAccountOf(String(r.agent_id), r.wallet_address as string | null)).toLowerCase(),
    agentId: String(r.agent_id),
    name: String(r.name),
    marketAddress: String(r.address),
    chainId: Number(r.chain_id),
    title: String(r.title),
    probabilityPpm: Number(r.probability_ppm),
    marketPpm: r.market_ppm === null || r.market_ppm === undefined ? UNIFORM_PPM : Number(r.market_ppm),
    yes: Number(r.resolved_outcome) === 0,
    takenAt: Number(r.updated_at),
    resolvedAt: Number(r.resolved_at),
  }));
}

/**
 * Scored takes change only when a market resolves, so a record and the cohort of one period share one reading for
 * SCORING_TTL_MS of the service's clock (every record ranks its account in the whole cohort, so it reads all of them).
 */
const SCORING_TTL_MS = 5_000;
const readingsOf = perDatabase(() => new Map<string, { at: number; takes: Promise<ScoredTake[]> }>());

export function recentScoredTakes(db: SqlRunner, bounds: PeriodBounds, now: number): Promise<ScoredTake[]> {
  const readings = readingsOf(db);
  if (!readings) return scoredTakes(db, bounds, now);
  const key = `${bounds.kind}:${bounds.start}`;
  const known = readings.get(key);
  if (known && now >= known.at && now - known.at < SCORING_TTL_MS) return known.takes;
  const takes = scoredTakes(db, bounds, now);
  readings.set(key, { at: now, takes });
  takes.catch(() => readings.get(key)?.takes === takes && readings.delete(key));
  return takes;
}

/** Each analyst's all-time scoring, by agent id, as the research read shows it beside each take. */
export async function analystScoring(db: SqlRunner, now: number): Promise<Map<string, ReturnType<typeof figuresOf> & { rank: number | null }>> {
  const { members } = cohortOf(await recentScoredTakes(db, { kind: "all", start: null, end: now }, now));
  return new Map([...members.values()].map((m) => [m.agentId, { ...figuresOf(m.sums), rank: m.rank }]));
}

/** An account's takes that are not scored now: for a horizon, on a void market, or on a market not yet final. */
export async function unscoredTakes(db: SqlRunner, account: string): Promise<{ pending: number; void: number; horizon: number }> {
  const [r] = await db.query<Row>(
    `SELECT COUNT(*) FILTER (WHERE t.horizon IS NOT NULL) AS horizon,
            COUNT(*) FILTER (WHERE t.horizon IS NULL AND m.state = 'void') AS void,
            COUNT(*) FILTER (WHERE t.horizon IS NULL AND m.state NOT IN ('resolved', 'void')) AS pending
       FROM content_takes t JOIN api_agents a ON a.id = t.agent_id JOIN markets m ON m.id = t.market_pk
      WHERE a.ledger_account = $1`,
    [account],
  );
  return { pending: Number(r?.pending ?? 0), void: Number(r?.void ?? 0), horizon: Number(r?.horizon ?? 0) };
}
