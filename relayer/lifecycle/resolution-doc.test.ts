/**
 * docs/resolution.md can never drift from the code: its generated blocks (values, transitions, worked examples)
 * must equal what test-support/worked-examples.ts renders from the real commands, and each example's net result
 * must equal the numbers written there by hand. `WRITE_DOCS=1 npm run test:ts -- resolution-doc` rewrites the blocks.
 */
import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { escrowBalances, isTerminal } from "./states";
import { formatPm, netByParty, renderExamples, renderTransitions, renderValues, workedExamples } from "./test-support/worked-examples";

const DOC = join(__dirname, "..", "..", "docs", "resolution.md");
const BLOCKS: Record<string, () => string> = { values: renderValues, transitions: renderTransitions, examples: renderExamples };

const begin = (name: string) => `<!-- BEGIN GENERATED ${name}: relayer/lifecycle/test-support/worked-examples.ts -->`;
const end = (name: string) => `<!-- END GENERATED ${name} -->`;

function blockOf(doc: string, name: string): { start: number; stop: number } {
  const start = doc.indexOf(begin(name));
  const stop = doc.indexOf(end(name));
  assert.ok(start >= 0 && stop > start, `docs/resolution.md has no generated block "${name}"`);
  return { start: start + begin(name).length, stop };
}

describe("docs/resolution.md", () => {
  it("holds the values, the transitions and the worked examples exactly as the code renders them", () => {
    let doc = readFileSync(DOC, "utf8");
    for (const [name, render] of Object.entries(BLOCKS)) {
      const { start, stop } = blockOf(doc, name);
      const expected = `\n${render()}\n`;
      if (process.env.WRITE_DOCS === "1") doc = doc.slice(0, start) + expected + doc.slice(stop);
      else assert.equal(doc.slice(start, stop), expected, `block "${name}" drifted: run WRITE_DOCS=1 npm run test:ts -- resolution-doc`);
    }
    if (process.env.WRITE_DOCS === "1") writeFileSync(DOC, doc);
  });

  it("each worked example ends final, with empty escrows and the net result written by hand", () => {
    for (const ex of workedExamples()) {
      assert.ok(isTerminal(ex.market.state), `${ex.title}: ends in ${ex.market.state}`);
      assert.deepEqual(escrowBalances(ex.market), { bond: 0n, vote: 0n }, ex.title);
      const net = Object.fromEntries([...netByParty(ex.steps)].map(([who, v]) => [who, `${v > 0n ? "+" : ""}${formatPm(v)}`]));
      assert.deepEqual(net, ex.expectedNet, ex.title);
    }
  });
});
