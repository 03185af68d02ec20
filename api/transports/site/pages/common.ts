/** What several pages share: where a market and a trader live on the site, and how a P&L cell and a period are written. */
import { html } from "hono/html";
import type { PeriodKind } from "../../../domain/ranking/periods";
import { decimalText, shortAddress } from "../format";
import type { Html } from "../layout";

export function marketHref(address: string): string {
  return `/markets/${address.toLowerCase()}`;
}

export function traderHref(address: string): string {
  return `/traders/${address.toLowerCase()}`;
}

/** An account as a short link to its trader page, the full address in its title. */
export function accountLink(address: string): Html {
  return html`<a href="${traderHref(address)}" title="${address}">${shortAddress(address)}</a>`;
}

/** A signed amount (decimal string) with the class that colours gains and losses. */
export function pnlCell(pnl: string): Html {
  const sign = pnl.startsWith("-") ? "loss" : /^0(\.0+)?$/.test(pnl) ? "flat" : "gain";
  return html`<td class="num ${sign}">${decimalText(pnl, 4)}</td>`;
}

export const PERIOD_LABELS: Record<PeriodKind, string> = {
  "7d": "This week",
  "30d": "This month",
  all: "All time",
  season: "Season",
  season7d: "Season, this week",
  season30d: "Season, this month",
};
