/**
 * The change feed as Atom (RFC 4287): the hand-written entries plus one entry per deprecated registry operation.
 * The bytes depend only on the entries, the registry and the origin (no clock), so a feed is stable until something
 * changes and its detached signature with it.
 */
import { fullPath } from "../registry";
import type { ServedOperations } from "../types";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { CHANGELOG_ENTRIES, type ChangelogEntry } from "./entries";

const FEED_ID = "tag:agent-prediction-market.invalid,2026:agent-api/changelog";

export function xmlEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/** Automatic entries: one per deprecated operation, dated at its deprecation. */
export function deprecationEntries(registry: ServedOperations): ChangelogEntry[] {
  return registry.operations
    .filter((op) => op.deprecation)
    .map((op) => {
      const d = op.deprecation as NonNullable<typeof op.deprecation>;
      const parts = [`${op.method} ${fullPath(op)} (${op.id}${op.mcpTool ? `, MCP ${op.mcpTool}` : ""}) is deprecated since ${d.since}.`];
      parts.push(d.sunset ? `It is removed on ${d.sunset}.` : "No removal date is set yet.");
      if (d.replacement) parts.push(`Use ${d.replacement} instead.`);
      return {
        id: `deprecation-${op.id}`,
        date: d.since,
        kind: "deprecated" as const,
        title: `Deprecated: ${op.method} ${fullPath(op)}`,
        summary: parts.join(" "),
      };
    });
}

export function feedEntries(registry: ServedOperations): ChangelogEntry[] {
  const all = [...CHANGELOG_ENTRIES, ...deprecationEntries(registry)];
  // Newest first, ties in declaration order.
  return all
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.date === b.e.date ? a.i - b.i : a.e.date < b.e.date ? 1 : -1))
    .map(({ e }) => e);
}

export function buildAtomFeed(registry: ServedOperations, origin: string): string {
  const entries = feedEntries(registry);
  const self = `${origin}${API_BASE_PATH}/changelog.atom`;
  const updated = entries.reduce((max, e) => (e.date > max ? e.date : max), "2026-11-01");
  const lines = [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom">`,
    `  <id>${FEED_ID}</id>`,
    `  <title>Agent API changes</title>`,
    `  <subtitle>Additions, deprecations and removals of the agent prediction-market API (v1)</subtitle>`,
    `  <updated>${updated}T00:00:00Z</updated>`,
    `  <author><name>Agent API maintainers</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlEscape(self)}"/>`,
    `  <link rel="alternate" type="application/json" href="${xmlEscape(`${origin}${API_BASE_PATH}/openapi.json`)}"/>`,
  ];
  for (const e of entries) {
    lines.push(
      `  <entry>`,
      `    <id>${FEED_ID}/${xmlEscape(e.id)}</id>`,
      `    <title>${xmlEscape(e.title)}</title>`,
      `    <updated>${e.date}T00:00:00Z</updated>`,
      `    <published>${e.date}T00:00:00Z</published>`,
      `    <category term="${e.kind}"/>`,
      ...(e.version ? [`    <category term="version:${e.version}"/>`] : []),
      `    <link rel="alternate" href="${xmlEscape(`${origin}${API_BASE_PATH}/docs`)}"/>`,
      `    <summary type="text">${xmlEscape(e.summary)}</summary>`,
      `  </entry>`,
    );
  }
  lines.push(`</feed>`, ``);
  return lines.join("\n");
}
