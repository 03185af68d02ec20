/** A trader's page: figures and P&L rank per period, and the markets it traded most (GET /discover/traders/{address}). */
import { html } from "hono/html";
import { getTradingProfile } from "../../../operations/discover/get-trading-profile";
import { getDiscoverMarket } from "../../../operations/discover/get-market";
import { PERIODS } from "../../../domain/ranking/periods";
import { decimalText, instantText, shortAddress, unitsText } from "../format";
import { type Html, page, section } from "../layout";
import type { Reader } from "../reads";
import { marketHref, PERIOD_LABELS, pnlCell } from "./common";

/** Shares per outcome as "14 / 0": the ledger keeps three slots; a binary market's unused third one is left out. */
function sharesText(shares: readonly string[], decimals: number): string {
  const used = Math.max(2, shares.findLastIndex((s) => s !== "0") + 1);
  return shares
    .slice(0, used)
    .map((s) => unitsText(s, decimals))
    .join(" / ");
}

export async function traderPage(read: Reader, address: string): Promise<Html> {
  const p = await read(getTradingProfile, { address });
  // The profile names markets by address; their titles come from the market reads (at most 20, from the catalog).
  const titles = new Map(
    await Promise.all(
      p.markets
        .filter((m) => m.market)
        .map(
          async (m) =>
            [
              m.market,
              await read(getDiscoverMarket, { address: m.market }).then(
                (d) => d.title,
                () => null,
              ),
            ] as const,
        ),
    ),
  );
  const unit = p.measurement.unit;
  const periods = PERIODS.map((k) => {
    const f = p.periods[k];
    return html`<tr><th scope="row">${PERIOD_LABELS[k]}</th><td class="num">${f.rank === null ? "–" : html`#${f.rank} of ${f.rankedAmong}`}</td>${pnlCell(f.pnl)}<td class="num">${decimalText(f.volume)}</td><td class="num">${f.returnPercent === null ? "–" : `${decimalText(f.returnPercent)}%`}</td><td class="num">${f.markets}</td><td class="num">${f.settledMarkets}</td><td class="num">${f.wins}</td></tr>`;
  });
  const figures = p.traded
    ? html`<table><thead><tr><th>Period</th><th>P&amp;L rank</th><th>P&amp;L (${unit.symbol})</th><th>Volume</th><th>Return</th><th>Markets</th><th>Settled</th><th>Won</th></tr></thead><tbody>${periods}</tbody></table>`
    : null;
  const markets = p.markets.map(
    (m) =>
      html`<tr><td>${m.market ? html`<a href="${marketHref(m.market)}" title="${m.market}">${titles.get(m.market) ?? shortAddress(m.market)}</a>` : "–"}</td><td>${m.category}</td>${pnlCell(m.pnl)}<td class="num">${decimalText(m.volume)}</td><td>${sharesText(m.shares, unit.decimals)}</td><td>${m.ended ? (m.ended === "void" ? "void" : m.won ? "won" : "lost") : m.holding ? "holding" : "closed"}</td></tr>`,
  );
  return page({
    title: `Trader ${address}`,
    nav: "leaderboard",
    body: html`<h1>Trader <code>${p.address}</code></h1>
<p class="lede">Figures from the committed journal as of ${instantText(p.measurement.asOf)}, open positions marked at the displayed prices (${p.measurement.markMethod}). Play money: no cash value.</p>
${section("Performance", "performance", figures, "This account has not traded yet.")}
${section("Markets", "markets", markets.length ? html`<table><thead><tr><th>Market</th><th>Category</th><th>P&amp;L</th><th>Volume</th><th>Shares held per outcome</th><th>Status</th></tr></thead><tbody>${markets}</tbody></table>` : null, "No market traded.")}`,
  });
}
