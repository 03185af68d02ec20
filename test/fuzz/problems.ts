/**
 * The refusal rule of every answer: a status of 400 or more is an RFC 9457 problem (`application/problem+json`) whose
 * `code` is one docs/errors.md lists, with the status that table gives it. The codes are read from the document itself,
 * so a code raised but never documented fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

function documentedCodes(): Map<string, number> {
  const doc = readFileSync(join(__dirname, "..", "..", "docs", "errors.md"), "utf8");
  const codes = new Map<string, number>();
  for (const line of doc.split("\n")) {
    const cells = line
      .trim()
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split("|")
      .map((c) => c.trim());
    const code = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[0] ?? "")?.[1];
    if (code && /^\d{3}$/.test(cells[1] ?? "")) codes.set(code, Number(cells[1]));
  }
  return codes;
}

export const DOCUMENTED_CODES = documentedCodes();

/** What is wrong with a refusal (status >= 400), or null when it follows the rule. */
export function problemDefect(status: number, contentType: string | null, body: unknown): string | null {
  if (!/^application\/problem\+json/.test(contentType ?? "")) return `content-type ${contentType}`;
  const p = body as { code?: unknown; status?: unknown } | null;
  if (!p || typeof p !== "object") return "no problem body";
  if (typeof p.code !== "string") return "no code";
  const documented = DOCUMENTED_CODES.get(p.code);
  if (documented === undefined) return `code ${p.code} is not in docs/errors.md`;
  if (documented !== status) return `code ${p.code} is documented as ${documented}, answered ${status}`;
  if (p.status !== status) return `status member ${String(p.status)} != ${status}`;
  return null;
}
