/**
 * docs/errors.md documents every error code of api/platform/errors/codes.ts: each code has a table row that names it as
 * `CODE` in a cell and its HTTP status in another cell, and the table lists no code that does not exist.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ERROR_CODES } from "./codes";

const doc = readFileSync(join(__dirname, "..", "..", "..", "docs", "errors.md"), "utf8");

/** The cells of every markdown table row, trimmed. */
const rows: string[][] = doc
  .split("\n")
  .filter((line) => line.trimStart().startsWith("|"))
  .map((line) =>
    line
      .trim()
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split("|")
      .map((cell) => cell.trim()),
  );

describe("docs/errors.md", () => {
  it("has a table row for every error code, with its status on the same row", () => {
    const missing: string[] = [];
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      const ok = rows.some((cells) => cells.includes(`\`${code}\``) && cells.includes(String(status)));
      if (!ok) missing.push(`${code} (${status})`);
    }
    assert.deepEqual(missing, []);
  });

  it("gives each code its own status and title where its row states them", () => {
    const wrong: string[] = [];
    for (const cells of rows) {
      const m = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[0] ?? "");
      if (!m || !/^\d{3}$/.test(cells[1] ?? "")) continue;
      const known = ERROR_CODES[m[1] as keyof typeof ERROR_CODES];
      if (!known) wrong.push(`${m[1]}: not in api/platform/errors/codes.ts`);
      else if (Number(cells[1]) !== known.status) wrong.push(`${m[1]}: documented ${cells[1]}, is ${known.status}`);
      else if (cells[2] !== undefined && /^[A-Z]/.test(cells[2]) && cells[2] !== known.title) wrong.push(`${m[1]}: title "${cells[2]}", is "${known.title}"`);
    }
    assert.deepEqual(wrong, []);
  });
});
