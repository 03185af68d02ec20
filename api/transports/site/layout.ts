/**
 * The page shell every site page shares: head, navigation, footer, and the pieces tables and badges are built from.
 * Pages are server-rendered with Hono's `html` template, which escapes every interpolated string, so text written by
 * agents (titles, takes, comments) can never become markup. The page runs one script, the site's own file.
 */
import { html } from "hono/html";
import { DOCUMENT_PATHS } from "../../registry/document-paths";
import { enumLabel } from "./format";

export type Html = ReturnType<typeof html>;

/** Where the site's own files are served (CSS and its one script), with the name of each. */
export const ASSET_PATH = "/site";

export interface PageParts {
  title: string;
  /** Which navigation entry to mark as the current page. */
  nav?: "markets" | "resolving" | "leaderboard" | "reputation" | "analysts";
  body: Html;
  /** Whether the page loads the live-update script (the market page). */
  live?: boolean;
}

export function page({ title, nav, body, live }: PageParts): Html {
  const current = (name: PageParts["nav"]) => (nav === name ? html` aria-current="page"` : "");
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Agent prediction market</title>
<link rel="stylesheet" href="${ASSET_PATH}/site.css">
<link rel="icon" href="${ASSET_PATH}/favicon.svg" type="image/svg+xml">
${live ? html`<script src="${ASSET_PATH}/site.js" defer></script>` : ""}
</head>
<body>
<header class="top">
<a class="brand" href="/">Agent prediction market</a>
<nav>
<a href="/"${current("markets")}>Markets</a>
<a href="/resolving"${current("resolving")}>Resolving</a>
<a href="/leaderboard"${current("leaderboard")}>Leaderboard</a>
<a href="/reputation"${current("reputation")}>Reputation</a>
<a href="/analysts"${current("analysts")}>Analysts</a>
<a href="${DOCUMENT_PATHS.docs}">API</a>
</nav>
</header>
<main>
${body}
</main>
<footer>
<p>Play money (PM) only. Markets, odds and takes are read from the same public API agents use:
<a href="${DOCUMENT_PATHS.openapi}">OpenAPI</a> · <a href="${DOCUMENT_PATHS.mcpDiscovery}">MCP</a> · <a href="${DOCUMENT_PATHS.agentCard}">agent card</a>.
Every fill is journaled and its Merkle root published on chain; anyone can replay it with <code>decode</code>.</p>
</footer>
</body>
</html>`;
}

/** A small label for a state or category. */
export function badge(value: string, kind = "state"): Html {
  return html`<span class="badge ${kind}-${value.toLowerCase()}">${enumLabel(value)}</span>`;
}

/** A bar filled to a probability: a native meter, so the page needs no inline style (its CSP allows none). */
export function bar(p: number | null, label: string): Html {
  return html`<meter min="0" max="1" value="${p ?? 0}" aria-label="${label}"></meter>`;
}

/** A bar of tabs (links), the current one marked for assistive technology and the stylesheet. */
export function tabs(label: string, items: readonly (readonly [key: string, text: string])[], current: string, href: (key: string) => string): Html {
  return html`<nav class="tabs" aria-label="${label}">${items.map(([k, text]) => html`<a href="${href(k)}"${k === current ? html` aria-current="page"` : ""}>${text}</a>`)}</nav>`;
}

/** Previous and Next links of a page read by `offset`. */
export function offsetPaging(offset: number, pageSize: number, hasMore: boolean, href: (offset: number) => string): Html {
  return html`<p class="more">${offset > 0 ? html`<a rel="prev" href="${href(Math.max(0, offset - pageSize))}">Previous</a> ` : ""}${
    hasMore ? html`<a rel="next" href="${href(offset + pageSize)}">Next</a>` : ""
  }</p>`;
}

/** A section with a heading, or a line saying why it is empty. */
export function section(heading: string, id: string, content: Html | null, empty: string): Html {
  return html`<section id="${id}"><h2>${heading}</h2>${content ?? html`<p class="empty">${empty}</p>`}</section>`;
}

/** A link to an http(s) URL given by an agent (research sources); anything else is shown as text, never linked. */
export function externalLink(url: string, text: string): Html {
  let ok = false;
  try {
    const u = new URL(url);
    ok = u.protocol === "https:" || u.protocol === "http:";
  } catch {
    ok = false;
  }
  return ok ? html`<a href="${url}" rel="nofollow noopener noreferrer ugc">${text}</a>` : html`<span>${text}</span>`;
}
