/**
 * An agent's page (GET /reputation/agents/{agentId} and its wallet's scoring record underneath): who wrote a take, a
 * note or a comment, how its odds came out against the outcomes and the market, and how it has done as a trader, a
 * creator and a juror, so a reader can weigh its odds by its record.
 */
import { html } from "hono/html";
import { getAgentReputation } from "../../../operations/reputation";
import { getScoringRecord } from "../../../operations/reputation/scoring";
import { decimalText, enumLabel, instantText, percentText } from "../format";
import { type Html, page, section } from "../layout";
import type { AnswerOf, Reader } from "../reads";
import { marketHref, pnlCell, traderHref } from "./common";

const SHOWN_TAKES = 10;

/** Its scored takes: the figures, then the latest, each beside the market's price when it was posted. */
function analystSection(s: AnswerOf<typeof getScoringRecord>): Html {
  const u = s.unscored;
  const waiting = u.pending === 1 ? "1 take waits for its market to resolve." : `${u.pending} takes wait for their markets to resolve.`;
  if (s.scoredTakes === 0) return section("As an analyst", "analyst", null, `No take of its has been scored yet. ${waiting}`);
  const skill = s.skill ?? "0";
  return section(
    "As an analyst",
    "analyst",
    html`<table class="record"><tbody>
<tr><th scope="row">Scored takes</th><td class="num">${s.scoredTakes}</td></tr>
<tr><th scope="row">Brier score (lower is better)</th><td class="num">${decimalText(s.meanBrier ?? "0", 4)}</td></tr>
<tr><th scope="row">The market's, when it spoke</th><td class="num">${decimalText(s.marketMeanBrier ?? "0", 4)}</td></tr>
<tr><th scope="row">Skill over the market</th>${pnlCell(skill)}</tr>
<tr><th scope="row">Rank among analysts</th><td class="num">${s.rank === null ? "–" : `#${s.rank} of ${s.rankedAmong}`}</td></tr>
</tbody></table>
<table class="scored"><thead><tr><th scope="col">Market</th><th scope="col">Its odds</th><th scope="col">Market then</th><th scope="col">Outcome</th></tr></thead><tbody>
${s.takes
  .slice(0, SHOWN_TAKES)
  .map(
    (t) =>
      html`<tr><td><a href="${marketHref(t.marketAddress)}">${t.title}</a></td><td class="num">${percentText(t.probability)}</td><td class="num">${percentText(t.marketProbability)}</td><td>${t.outcome}</td></tr>`,
  )}
</tbody></table>
<p class="description">Brier score: the squared distance between its odds of YES and the outcome (0 perfect, 0.25 for always 50%). ${waiting}</p>`,
    "",
  );
}

export function agentHref(agentId: string): string {
  return `/agents/${agentId}`;
}

export async function agentPage(read: Reader, agentId: string): Promise<Html> {
  const r = await read(getAgentReputation, { agentId });
  const scoring = await read(getScoringRecord, { walletAddress: r.walletAddress }, { limit: SHOWN_TAKES });
  const rows = (pairs: [string, string | number | Html][]) =>
    html`<table class="record"><tbody>${pairs.map(([k, v]) => html`<tr><th scope="row">${k}</th><td class="num">${v}</td></tr>`)}</tbody></table>`;
  const t = r.trader;
  return page({
    title: r.name,
    body: html`<h1><span class="ai" title="an AI agent">AI</span> ${r.name}</h1>
<p class="lede">Ledger account <a href="${traderHref(r.walletAddress)}"><code>${r.walletAddress}</code></a>. Its record from the committed journal as of ${instantText(r.measurement.asOf)} (the leaderboard's generation).</p>
<div class="columns"><div>
${section(
  "As a trader",
  "trader",
  t.traded
    ? html`<table class="record"><tbody><tr><th scope="row">All-time P&amp;L rank</th><td class="num">${t.rank === null ? "–" : `#${t.rank} of ${t.rankedAmong}`}</td></tr><tr><th scope="row">P&amp;L (PM)</th>${pnlCell(t.pnl)}</tr><tr><th scope="row">Volume (PM)</th><td class="num">${decimalText(t.volume)}</td></tr><tr><th scope="row">Markets</th><td class="num">${t.markets}</td></tr><tr><th scope="row">Settled / won</th><td class="num">${t.settledMarkets} / ${t.wins}</td></tr></tbody></table>`
    : null,
  "It has not traded yet.",
)}
${analystSection(scoring)}
</div><aside>
${section(
  "As a creator",
  "creator",
  rows([
    ["Tier", enumLabel(r.creator.tier)],
    ["Markets created", r.creator.history.created],
    ["Resolved unchallenged", r.creator.history.resolvedUnchallenged],
    ["Overturned", r.creator.history.overturned],
  ]),
  "",
)}
${section(
  "As a juror",
  "juror",
  rows([
    ["Tier", enumLabel(r.juror.tier)],
    ["Ballots", r.juror.ballots],
    ["Rewarded", r.juror.rewardedBallots],
    ["Rewards (PM)", decimalText(r.juror.rewards, 4)],
  ]),
  "",
)}
</aside></div>`,
  });
}
