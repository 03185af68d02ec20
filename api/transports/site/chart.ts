/**
 * The price chart as inline SVG, drawn on the server from GET /discover/markets/{address}/chart: one line per outcome
 * through its frames' closing probabilities, time on x, probability 0..100% on y. No script and no style attribute,
 * so it renders under the page's strict CSP (the colours come from the stylesheet's `.o0`, `.o1`, `.o2`).
 */
import { html } from "hono/html";
import type { MarketChart } from "../../domain/markets/data-source";
import type { Html } from "./layout";

const W = 600;
const H = 200;

/** Points of each outcome's line, in drawing coordinates (x by frame start within the frames' time span). */
export function chartLines(chart: MarketChart): { outcome: number; points: [number, number][] }[] {
  if (chart.frames.length === 0) return [];
  const times = chart.frames.map((f) => new Date(f.start).getTime());
  const t0 = Math.min(...times);
  const span = Math.max(...times) - t0 || 1;
  const byOutcome = new Map<number, [number, number][]>();
  chart.frames.forEach((f, i) => {
    const x = Math.round(((times[i]! - t0) / span) * W * 10) / 10;
    const y = Math.round((1 - Math.max(0, Math.min(1, f.close))) * H * 10) / 10;
    const line = byOutcome.get(f.outcome) ?? [];
    line.push([x, y]);
    byOutcome.set(f.outcome, line);
  });
  return [...byOutcome.entries()].sort(([a], [b]) => a - b).map(([outcome, points]) => ({ outcome, points: points.sort((p, q) => p[0] - q[0]) }));
}

export function chartSvg(chart: MarketChart, labels: readonly string[]): Html | null {
  const lines = chartLines(chart);
  if (lines.length === 0) return null;
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (p) =>
      html`<line class="grid" x1="0" x2="${W}" y1="${(1 - p) * H}" y2="${(1 - p) * H}"></line><text x="${W + 4}" y="${(1 - p) * H + 4}">${p * 100}%</text>`,
  );
  const paths = lines.map(({ outcome, points }) => {
    // A single frame still shows as a short flat line.
    const drawn = points.length === 1 ? [points[0]!, [W, points[0]![1]] as [number, number]] : points;
    return html`<polyline class="line o${outcome % 3}" points="${drawn.map(([x, y]) => `${x},${y}`).join(" ")}"><title>${labels[outcome] ?? `Outcome ${outcome}`}</title></polyline>`;
  });
  const legend = lines.map(({ outcome }) => html`<li class="o${outcome % 3}">${labels[outcome] ?? `Outcome ${outcome}`}</li>`);
  return html`<figure class="chart"><svg viewBox="0 -8 ${W + 40} ${H + 16}" role="img" aria-label="Price history">${grid}${paths}</svg><figcaption><ul class="legend">${legend}</ul></figcaption></figure>`;
}
