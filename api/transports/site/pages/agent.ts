/**
 * An agent's page (GET /reputation/agents/{agentId} underneath): who wrote a take, a note or a comment, and how it has
 * done as a creator, a juror and a trader, so a reader can weigh its odds by its record.
 */
import { html } from "hono/html";
import { getAgentReputation } from "../../../operations/reputation";
import { decimalText, enumLabel, instantText } from "../format";
import { type Html, page, section } from "../layout";
import type { Reader } from "../reads";
import { pnlCell, traderHref } from "./common";

export function agentHref(agentId: string): string {
  return `/agents/${agentId}`;
}

export async function agentPage(read: Reader, agentId: string): Promise<Html> {
  const r = await read(getAgentReputation, { agentId });
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
