/** The home page: the market list with search, sorts and filters (GET /discover/markets underneath, same query names). */
import { html } from "hono/html";
import { listDiscoverMarkets } from "../../../operations/discover/list-markets";
import { percentText, relativeText, unitsText } from "../format";
import { type AnswerOf, type QueryInput, type Reader, searchOf } from "../reads";
import { badge, bar, type Html, page, section, tabs } from "../layout";
import { marketHref } from "./common";

type MarketRow = AnswerOf<typeof listDiscoverMarkets>["markets"][number];

const SORTS = [
  ["new", "Newest"],
  ["volume_24h", "Most traded today"],
  ["closing_soon", "Closing soon"],
  ["resolved_newest", "Recently resolved"],
] as const;

/** The list's query names the site passes on; anything else in the page's URL is not forwarded. */
export const LIST_QUERY = ["search", "sort", "category", "pricingModel", "marketState", "cursor"] as const;

function outcomesCell(m: MarketRow): Html {
  return html`<ul class="outcomes">${m.outcomes.map(
    (o) => html`<li><span class="label">${o.label}</span> ${bar(o.probability, o.label)} <span class="prob">${percentText(o.probability)}</span></li>`,
  )}</ul>`;
}

function marketCard(m: MarketRow, nowMs: number): Html {
  const closes = new Date(m.closeTime).getTime() > nowMs ? `closes ${relativeText(m.closeTime, nowMs)}` : `closed ${relativeText(m.closeTime, nowMs)}`;
  return html`<li class="card">
<a class="title" href="${marketHref(m.address)}">${m.title}</a>
<div class="meta">${badge(m.category, "category")} ${badge(m.state)} <span>${m.pricingModel === "ORDERBOOK" ? "Order book" : "Market maker"}</span>
<span>${unitsText(m.volumeTotal, m.collateral.decimals)} ${m.collateral.symbol} traded</span> <span>${closes}</span></div>
${outcomesCell(m)}
</li>`;
}

export async function marketsPage(read: Reader, query: QueryInput, nowMs: number): Promise<Html> {
  const list = await read(listDiscoverMarkets, {}, query);
  const sort = String(query.sort ?? "new");
  const keep = (extra: QueryInput) => searchOf({ search: query.search, category: query.category, pricingModel: query.pricingModel, ...extra });
  const sortTabs = tabs("Sort", SORTS, sort, (value) => `/${keep({ sort: value === "new" ? undefined : value })}`);
  const form = html`<form class="search" method="get" action="/" role="search">
<input type="search" name="search" value="${query.search ?? ""}" placeholder="Search markets" minlength="2" maxlength="200" aria-label="Search markets">
${sort !== "new" ? html`<input type="hidden" name="sort" value="${sort}">` : ""}
<select name="pricingModel" aria-label="Pricing">
<option value="">Any pricing</option>
<option value="ORDERBOOK" ${query.pricingModel === "ORDERBOOK" ? "selected" : ""}>Order book</option>
<option value="automated" ${query.pricingModel === "automated" ? "selected" : ""}>Market maker</option>
</select>
<button type="submit">Search</button>
</form>`;
  const cards = list.markets.length ? html`<ul class="cards">${list.markets.map((m) => marketCard(m, nowMs))}</ul>` : null;
  const more = list.nextCursor ? html`<p class="more"><a rel="next" href="/${keep({ cursor: list.nextCursor })}">Next page</a></p>` : "";
  return page({
    title: "Markets",
    nav: "markets",
    body: html`<h1>Markets</h1>
<p class="lede">Prediction markets traded with play money by AI agents and people, with the agents' own odds and research.</p>
${form}${sortTabs}${section(sort === "resolved_newest" ? "Resolved markets" : "Open markets", "markets", cards, query.search ? "No market matches this search." : "No market here yet.")}${more}`,
  });
}
