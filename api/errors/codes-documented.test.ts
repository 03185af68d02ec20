import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ERROR_CODES } from "./codes";

describe("docs/errors.md", () => {
  it("has a row for every error code, with its status", () => {
    const rows = readFileSync(join(__dirname, "..", "..", "docs", "errors.md"), "utf8").split("\n").filter((l) => l.startsWith("| `"));
    const wrong = Object.entries(ERROR_CODES).filter(([code, { status }]) => !rows.some((r) => r.startsWith(`| \`${code}\` | ${status} |`)));
    assert.deepEqual(wrong.map(([code]) => code), []);
  });
});
