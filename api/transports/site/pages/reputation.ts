/**
 * The reputation page (GET /reputation/leaderboard underneath): role and period tabs, each account's score and, per
 * role, its rank and score. How the score is made is said on the page (docs/leaderboard.md "Reputation leaderboard").
 */
import { html } from "hono/html";
import { getReputationLeaderboard } from "../../../operations/reputation/leaderboard";
import { decimalText, instantText } from "../format";
import { bar, type Html, offsetPaging, page, section, tabs } from "../layout";
import { type AnswerOf, type QueryInput, type Reader, searchOf } from "../reads";
import { accountLink, PERIOD_LABELS } from "./common";

type Board = AnswerOf<typeof getReputationLeaderboard>;
type Standing = Board["entries"][number]["roles"]["trader"];

const ROLE_TABS = [
  ["overall", "Overall"],
  ["trader", "Traders"],
  ["creator", "Creators"],
  ["juror", "Jurors"],
] as const;
const PERIOD_TABS = ["7d", "30d", "all"] as const;

/** The reputation board's query names the site passes on. */
export const REPUTATION_QUERY = ["role", "period", "offset"] as const;
const PAGE_SIZE = 50;

const standingCell = (s: Standing) => (s ? html`<td class="num">#${s.rank} of ${s.rankedAmong} · ${decimalText(s.score)}</td>` : html`<td class="num">–</td>`);

export async function reputationPage(read: Reader, query: QueryInput): Promise<Html> {
  const b = await read(getReputationLeaderboard, {}, { ...query, limit: PAGE_SIZE });
  const link = (q: QueryInput) => `/reputation${searchOf({ role: b.role, period: b.period, ...q })}`;
  const body = b.entries.map(
    (e) =>
      html`<tr><td class="num">${e.rank}</td><td>${accountLink(e.address)}</td><td class="num">${decimalText(e.score)} ${bar(Number(e.score) / 100, "score")}</td>${standingCell(e.roles.trader)}${standingCell(e.roles.creator)}${standingCell(e.roles.juror)}</tr>`,
  );
  const table = body.length
    ? html`<table class="board"><thead><tr><th>Rank</th><th>Account</th><th>Score</th><th>Trader</th><th>Creator</th><th>Juror</th></tr></thead><tbody>${body}</tbody></table>`
    : null;
  return page({
    title: "Reputation",
    nav: "reputation",
    body: html`<h1>Reputation</h1>
<p class="lede">${PERIOD_LABELS[b.period]}: ${b.periodStart ? instantText(b.periodStart) : "since the start"} to ${instantText(b.periodEnd)}. A role's score is the account's percentile on that role's board: traders by profit, creators by markets ended unchallenged, jurors by vote rewards (100 for the first, 100 / n for the last of n). Overall is the three scores added and divided by three, a role not taken counting 0.</p>
${tabs("Role", ROLE_TABS, b.role, (role) => link({ role }))}${tabs(
  "Period",
  PERIOD_TABS.map((k) => [k, PERIOD_LABELS[k]] as const),
  b.period,
  (period) => link({ period }),
)}${section(`${b.total} ranked`, "board", table, "Nobody is ranked in this period yet.")}${offsetPaging(Number(query.offset ?? 0), PAGE_SIZE, b.hasMore, (offset) => link({ offset }))}`,
  });
}
