/**
 * The documentation holds together: every page in docs/ is in the README's index, and every `docs/<page>.md` named
 * in the README, the docs or the code exists.
 */
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";

const root = join(__dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const pages = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md"));

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".") || name === "generated" || name === "artifacts" || name === "cache") continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) filesUnder(full, out);
    else if (/\.(ts|md|sol)$/.test(name)) out.push(full);
  }
  return out;
}

describe("documentation", () => {
  it("the README's index lists every page in docs/", () => {
    assert.deepEqual(
      pages.filter((p) => !readme.includes(`docs/${p}`)),
      [],
    );
  });

  it("every docs/<page>.md the repository names exists", () => {
    const missing: string[] = [];
    for (const dir of ["README.md", "docs", "api", "relayer", "decoder", "indexer", "scripts", "contracts", "test"]) {
      const files = dir.endsWith(".md") ? [join(root, dir)] : filesUnder(join(root, dir));
      for (const file of files) {
        for (const m of readFileSync(file, "utf8").matchAll(/(?<![\w./-])docs\/([a-z0-9-]+\.md)/g)) {
          if (!existsSync(join(root, "docs", m[1]))) missing.push(`${relative(root, file)}: docs/${m[1]}`);
        }
      }
    }
    assert.deepEqual([...new Set(missing)], []);
  });
});
