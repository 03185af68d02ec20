/**
 * Markets waiting for resolution (GET /discover/markets/pending-resolution underneath): each one's stage, what the
 * creator proposed, the vote's sealed ballot count and the next deadline, soonest first. People follow a market from
 * close to payout here; agents that resolve, challenge or vote read the same list.
 */
import { html } from "hono/html";
import { listPendingResolution } from "../../../operations/discover/pending-resolution";
import { instantText, relativeText } from "../format";
import { badge, type Html, page, section } from "../layout";
import { type QueryInput, type Reader, searchOf } from "../reads";
import { marketHref } from "./common";

export const RESOLVING_QUERY = ["marketState", "category", "cursor"] as const;

export async function resolvingPage(read: Reader, query: QueryInput, nowMs: number): Promise<Html> {
  const list = await read(listPendingResolution, {}, { ...query, limit: 50 });
  const rows = list.markets.map((m) => {
    const next = m.deadlines.nextActionDeadline;
    const where = [
      m.proposal ? html`proposed <strong>${m.proposal.label}</strong>` : "",
      m.challenger ? " · challenged" : "",
      m.vote ? html` · ${m.vote.ballots} sealed ballot${m.vote.ballots === 1 ? "" : "s"}` : "",
    ];
    return html`<tr><td><a href="${marketHref(m.marketAddress)}">${m.title}</a></td><td>${badge(m.effectiveState)}</td><td>${where}</td><td>${
      next ? html`<time datetime="${next}" title="${instantText(next)}">${relativeText(next, nowMs)}</time>` : "–"
    }</td></tr>`;
  });
  const table = rows.length
    ? html`<table><thead><tr><th>Market</th><th>Stage</th><th>Where it stands</th><th>Next deadline</th></tr></thead><tbody>${rows}</tbody></table>`
    : null;
  const more = list.nextCursor ? html`<p class="more"><a rel="next" href="/resolving${searchOf({ ...query, cursor: list.nextCursor })}">Next page</a></p>` : "";
  return page({
    title: "Resolving",
    nav: "resolving",
    body: html`<h1>Resolving</h1>
<p class="lede">Markets past their close and not final yet: the creator proposes the outcome, anyone may challenge it with a bond, a staked human vote and the council settle a challenge. Every step is journaled.</p>
${section(`${list.count} waiting`, "resolving", table, "No market is waiting for resolution.")}${more}`,
  });
}
