/**
 * The web site (docs/site.md): server-rendered pages for people, on the host root beside the API. Home lists markets,
 * `/markets/{address}` shows one, `/resolving` those waiting for resolution, `/leaderboard`, `/reputation` and `/traders/{address}`
 * the rankings, `/analysts` the AI analysts' scoring, `/agents/{agentId}` an author's record. Every page reads through the
 * registry's public operations (./reads.ts), so it shows what agents read. Pages carry their own CSP: this origin's
 * stylesheet and one script, no inline code, no framing, forms only to this origin. A refusal of a read is an HTML
 * page with the problem's status, code and detail; a browser asking for an unknown path gets an HTML 404 too.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Context, Hono } from "hono";
import { html } from "hono/html";
import type { ServiceContext } from "../../context";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { ASSET_PATH, type Html, page } from "./layout";
import { marketPage } from "./pages/market";
import { LIST_QUERY, marketsPage } from "./pages/markets";
import { BOARD_QUERY, leaderboardPage } from "./pages/leaderboard";
import { REPUTATION_QUERY, reputationPage } from "./pages/reputation";
import { ANALYSTS_QUERY, analystsPage } from "./pages/analysts";
import { traderPage } from "./pages/trader";
import { RESOLVING_QUERY, resolvingPage } from "./pages/resolving";
import { agentPage } from "./pages/agent";
import { type QueryInput, type Reader, readerFor, SiteProblem } from "./reads";

export const SITE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  // The market page's script refreshes its odds from this origin's public API.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const ASSETS: Record<string, string> = {
  "site.css": "text/css; charset=utf-8",
  "site.js": "text/javascript; charset=utf-8",
  "favicon.svg": "image/svg+xml",
};
const assetDir = join(__dirname, "assets");

const PROBLEM_TITLES: Record<number, string> = { 400: "Bad request", 404: "Not found", 429: "Too many requests", 503: "Unavailable" };

function htmlResponse(c: Context, status: number, body: Html): Promise<Response> | Response {
  c.header("content-security-policy", SITE_CSP);
  c.header("cache-control", "no-cache");
  return c.html(body, status as 200);
}

function problemPage(c: Context, status: number, code: string, detail: string): Promise<Response> | Response {
  const title = PROBLEM_TITLES[status] ?? (status >= 500 ? "Something went wrong" : "Cannot show this page");
  return htmlResponse(
    c,
    status,
    page({
      title,
      body: html`<h1>${title}</h1><p class="problem" data-code="${code}"><code>${code}</code>: ${detail}</p><p><a href="/">Back to the markets</a></p>`,
    }),
  );
}

/** The query values of the page's URL that its read takes (others, such as tracking tags, are ignored). */
function pick(c: Context, names: readonly string[]): QueryInput {
  const out: QueryInput = {};
  for (const n of names) {
    const v = c.req.query(n);
    if (v !== undefined && v !== "") out[n] = v;
  }
  return out;
}

/** Whether an unknown path should get the site's HTML 404 rather than a problem document: a browser, off the API. */
export function wantsSitePage(c: Context): boolean {
  const path = new URL(c.req.url).pathname;
  return c.req.method === "GET" && !path.startsWith(`${API_BASE_PATH}/`) && (c.req.header("accept") ?? "").includes("text/html");
}

export function siteNotFound(c: Context): Promise<Response> | Response {
  return problemPage(c, 404, "NOT_FOUND", `There is no page at ${new URL(c.req.url).pathname}.`);
}

export function mountSite(app: Hono, ctx: ServiceContext): void {
  const render = (build: (read: Reader, c: Context) => Promise<Html>) => async (c: Context) => {
    try {
      return await htmlResponse(c, 200, await build(readerFor(app, c), c));
    } catch (err) {
      if (err instanceof SiteProblem) return problemPage(c, err.status, err.code, err.detail);
      const requestId = c.var.requestId ?? "unknown";
      (c.var.log?.() ?? ctx.log).error({ err, requestId, path: new URL(c.req.url).pathname }, "site page failed");
      return problemPage(c, 500, "INTERNAL_ERROR", `The page could not be built; quote request id ${requestId}.`);
    }
  };
  const now = () => ctx.clock.now();
  app.get(
    "/",
    render((read, c) => marketsPage(read, pick(c, LIST_QUERY), now())),
  );
  app.get(
    "/markets/:address",
    render((read, c) => marketPage(read, c.req.param("address") ?? "", c.req.query("window"), now())),
  );
  app.get(
    "/resolving",
    render((read, c) => resolvingPage(read, pick(c, RESOLVING_QUERY), now())),
  );
  app.get(
    "/leaderboard",
    render((read, c) => leaderboardPage(read, pick(c, BOARD_QUERY))),
  );
  app.get(
    "/reputation",
    render((read, c) => reputationPage(read, pick(c, REPUTATION_QUERY))),
  );
  app.get(
    "/analysts",
    render((read, c) => analystsPage(read, pick(c, ANALYSTS_QUERY))),
  );
  app.get(
    "/agents/:agentId",
    render((read, c) => agentPage(read, c.req.param("agentId") ?? "")),
  );
  app.get(
    "/traders/:address",
    render((read, c) => traderPage(read, c.req.param("address") ?? "")),
  );

  const files = new Map<string, string>();
  app.get(`${ASSET_PATH}/:file`, (c) => {
    const name = c.req.param("file") ?? "";
    const type = ASSETS[name];
    if (!type) return siteNotFound(c);
    let body = files.get(name);
    if (!body) files.set(name, (body = readFileSync(join(assetDir, name), "utf8")));
    return c.body(body, 200, { "content-type": type, "cache-control": "public, max-age=300" });
  });
}
