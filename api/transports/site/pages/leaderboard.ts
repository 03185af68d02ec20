/**
 * The leaderboard page (GET /discover/leaderboard underneath): period and sort tabs, the trader, creator or voter
 * board the sort asks for, and paging that pins the board's generation, so page two ranks the same figures as page one.
 */
import { html } from "hono/html";
import { getLeaderboard } from "../../../operations/discover/get-leaderboard";
import type { PeriodKind } from "../../../domain/ranking/periods";
import { decimalText, instantText } from "../format";
import { type Html, offsetPaging, page, section, tabs } from "../layout";
import { type AnswerOf, type QueryInput, type Reader, searchOf } from "../reads";
import { accountLink, PERIOD_LABELS, pnlCell } from "./common";

type Board = AnswerOf<typeof getLeaderboard>;

const PERIOD_TABS: readonly PeriodKind[] = ["7d", "30d", "all", "season"];

const SORT_TABS = [
  ["PNL", "Profit"],
  ["VOLUME", "Volume"],
  ["WIN_RATE", "Win rate"],
  ["ROI", "ROI"],
  ["MARKETS", "Markets"],
  ["CREATOR_QUALITY", "Creators"],
  ["VOTERS", "Voters"],
] as const;

/** The board's query names the site passes on. */
export const BOARD_QUERY = ["period", "sort", "category", "offset", "generation"] as const;

export const PAGE_SIZE = 50;

function rows(b: Board): { head: Html; body: Html[] } {
  const percent = (v: string | null) => (v === null ? "–" : `${decimalText(v)}%`);
  if (b.board === "traders")
    return {
      head: html`<tr><th>Rank</th><th>Trader</th><th>P&amp;L (${b.measurement.unit.symbol})</th><th>Volume</th><th>Return</th><th>Markets</th><th>Settled</th><th>Win rate</th><th>ROI</th></tr>`,
      body: b.traders.map(
        (t) =>
          html`<tr><td class="num">${t.rank}</td><td>${accountLink(t.address)}</td>${pnlCell(t.pnl)}<td class="num">${decimalText(t.volume)}</td><td class="num">${percent(t.returnPercent)}</td><td class="num">${t.markets}</td><td class="num">${t.settledMarkets}</td><td class="num">${percent(t.winRatePercent)}</td><td class="num">${percent(t.roiPercent)}</td></tr>`,
      ),
    };
  if (b.board === "creators")
    return {
      head: html`<tr><th>Rank</th><th>Creator</th><th>Markets created</th><th>Ended</th><th>Unchallenged</th><th>Overturned</th><th>Quality</th><th>Volume</th></tr>`,
      body: b.creators.map(
        (c) =>
          html`<tr><td class="num">${c.rank}</td><td>${accountLink(c.address)}</td><td class="num">${c.marketsCreated}</td><td class="num">${c.marketsEnded}</td><td class="num">${c.unchallenged}</td><td class="num">${c.overturned}</td><td class="num">${percent(c.qualityPercent)}</td><td class="num">${decimalText(c.volume)}</td></tr>`,
      ),
    };
  return {
    head: html`<tr><th>Rank</th><th>Voter</th><th>Ballots</th><th>Rewarded</th><th>Staked</th><th>Rewards</th></tr>`,
    body: b.voters.map(
      (v) =>
        html`<tr><td class="num">${v.rank}</td><td>${accountLink(v.address)}</td><td class="num">${v.ballots}</td><td class="num">${v.rewardedBallots}</td><td class="num">${decimalText(v.staked)}</td><td class="num">${decimalText(v.rewards, 4)}</td></tr>`,
    ),
  };
}

export async function leaderboardPage(read: Reader, query: QueryInput): Promise<Html> {
  const b = await read(getLeaderboard, {}, { ...query, limit: PAGE_SIZE });
  const period = b.period;
  const sort = b.measurement.sort;
  const link = (q: QueryInput) => `/leaderboard${searchOf({ period, sort, category: query.category, ...q })}`;
  const periodTabs = tabs(
    "Period",
    PERIOD_TABS.map((k) => [k, PERIOD_LABELS[k]] as const),
    period,
    (k) => link({ period: k }),
  );
  const sortTabs = tabs("Board", SORT_TABS, sort, (k) => link({ sort: k }));
  const { head, body } = rows(b);
  const table = body.length ? html`<table class="board"><thead>${head}</thead><tbody>${body}</tbody></table>` : null;
  const offset = Number(query.offset ?? 0);
  const pin = b.measurement.generation;
  const paging = offsetPaging(offset, PAGE_SIZE, b.hasMore, (o) => link({ offset: o, generation: pin }));
  const window = b.measurement.period;
  return page({
    title: "Leaderboard",
    nav: "leaderboard",
    body: html`<h1>Leaderboard</h1>
<p class="lede">${PERIOD_LABELS[period]}: ${window.start ? instantText(window.start) : "since the start"} to ${instantText(window.end)}. Ranked from the committed journal; open positions marked at the displayed prices. Play money: no cash value.${
      b.measurement.stale ? " These figures are from an earlier build; a newer one failed and is being retried." : ""
    }</p>
${periodTabs}${sortTabs}${section(`${b.total} ranked`, "board", table, "Nobody is ranked in this period yet.")}${paging}`,
  });
}
