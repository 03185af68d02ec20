import { expect } from "chai";
import hre from "hardhat";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Source-level guards over contracts/ and test/contracts/: every custom error the project declares is expected by
 * some test, every public surface of the project's sources carries NatSpec, and docs/contracts.md quotes a gas figure
 * for every state-changing entry point.
 */
const root = hre.config.paths.root;

function filesUnder(dir: string, ext: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) filesUnder(full, ext, out);
    else if (name.endsWith(ext)) out.push(full);
  }
  return out;
}

/** Source with `//` and block comments blanked, so commented-out code and prose never count. */
const stripComments = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");

const sources = filesUnder(hre.config.paths.sources, ".sol").map((file) => ({ file: relative(root, file), text: readFileSync(file, "utf8") }));

describe("contract guards", () => {
  it("every custom error declared in contracts/ is the expected error of at least one test", async () => {
    const declared = new Map<string, string>();
    for (const { file, text } of sources) {
      for (const [, name] of stripComments(text).matchAll(/\berror\s+(\w+)\s*\(/g)) declared.set(name, file);
    }
    // The scan must see what the compiler saw: every declared name is in some artifact's ABI, and vice versa for
    // the project's own prefixes (catches a regex that silently misses declarations).
    const abiErrors = new Set<string>();
    for (const fqn of await hre.artifacts.getAllFullyQualifiedNames()) {
      if (!fqn.startsWith("contracts/")) continue;
      for (const item of hre.artifacts.readArtifactSync(fqn).abi) if (item.type === "error") abiErrors.add(item.name);
    }
    for (const name of declared.keys()) expect(abiErrors.has(name), `${name} not in any ABI`).to.equal(true);
    const prefixed = [...abiErrors].filter((n) => /^(Ledger|OutcomeToken|TestUSDC|Lmsr|Orderbook|Router|Participation)/.test(n));
    expect([...declared.keys()].sort()).to.deep.equal(prefixed.sort());
    expect(declared.size).to.be.greaterThan(30);

    // A test "hits" an error when the name is the last argument of a call: `expectRevert(p, abi, "Name")` or
    // `expectCustomError(p, "Name")` (a trailing comma allowed, as the formatter writes it). A bare mention elsewhere does not count.
    const self = __filename;
    const tests = filesUnder(hre.config.paths.tests, ".ts")
      .filter((f) => f !== self)
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const missing = [...declared].filter(([name]) => !new RegExp(`,\\s*["'\`]${name}["'\`]\\s*,?\\s*\\)`).test(tests)).map(([n, f]) => `${n} (${f})`);
    expect(missing, `custom errors no test expects: ${missing.join(", ")}`).to.deep.equal([]);
  });

  it("every external or public function, public state variable, event and error in contracts/ has NatSpec", () => {
    const undocumented: string[] = [];
    const checked: string[] = [];
    for (const { file, text } of sources) {
      const lines = text.split("\n");
      lines.forEach((line, i) => {
        const fn = /^\s*function\s+(\w+)/.exec(line);
        let name: string | undefined;
        if (fn) {
          // The visibility may be on a later line of a multi-line signature: read up to the body or the `;`.
          let header = "";
          for (let k = i; k < lines.length && !/[{;]/.test(header); k++) header += ` ${lines[k]}`;
          if (/\b(external|public)\b/.test(header)) name = `function ${fn[1]}`;
        } else {
          const decl = /^\s*(event|error)\s+(\w+)/.exec(line) ?? /^\s*[\w.]+(?:\([^)]*\))?[\w\s\[\]]*\bpublic\b[\w\s]*?\b(\w+)\s*[;=]/.exec(line);
          if (decl) name = decl.length === 3 ? `${decl[1]} ${decl[2]}` : `variable ${decl[1]}`;
        }
        if (!name) return;
        checked.push(name);
        let k = i - 1;
        while (k >= 0 && lines[k].trim() === "") k--;
        const previous = lines[k]?.trim() ?? "";
        if (!previous.startsWith("///") && !previous.endsWith("*/")) undocumented.push(`${file}:${i + 1} ${name}`);
      });
    }
    expect(undocumented).to.deep.equal([]);
    // The scan really sees the declarations (a broken pattern would pass vacuously).
    for (const known of [
      "function commitJournalBatch",
      "function executeBasketIntent",
      "variable RECEIVE_WITH_AUTHORIZATION_TYPEHASH",
      "variable collateralEnabled",
      "event MarketCreated",
      "error RouterEmptyBasket",
    ]) {
      expect(checked, known).to.include(known);
    }
  });

  it("docs/contracts.md has a gas row for every state-changing external or public function declared in contracts/", () => {
    const doc = readFileSync(join(root, "docs", "contracts.md"), "utf8");
    const gas = doc.slice(doc.indexOf("## Gas"));
    // Rows `| Contract (variant) | entry points | figures |` whose figure cell holds a number.
    const rows = [...gas.matchAll(/^\|\s*([A-Za-z]+)[^|]*\|([^|]+)\|\s*([\d,]+[^|]*)\|\s*$/gm)].map(([, contract, entries]) => ({ contract, entries }));
    expect(rows.length).to.be.greaterThan(15);
    // Run once inside createMarket or the proxy's deployment (the doc says so below the table).
    const exempt = new Set(["initialize"]);
    const missing: string[] = [];
    const entryPoints: string[] = [];
    for (const { file, text } of sources) {
      const contract = /^\s*contract\s+(\w+)/m.exec(stripComments(text))?.[1];
      if (!contract) continue;
      const lines = stripComments(text).split("\n");
      lines.forEach((line, i) => {
        const fn = /^\s*function\s+(\w+)/.exec(line);
        if (!fn || exempt.has(fn[1])) return;
        let header = "";
        for (let k = i; k < lines.length && !/[{;]/.test(header); k++) header += ` ${lines[k]}`;
        if (!/\b(external|public)\b/.test(header) || /\b(view|pure)\b/.test(header) || header.trimEnd().endsWith(";")) return;
        entryPoints.push(`${contract}.${fn[1]}`);
        const quoted = rows.some((r) => r.contract === contract && new RegExp(`\\b${fn[1]}\\b`).test(r.entries));
        if (!quoted) missing.push(`${contract}.${fn[1]} (${file})`);
      });
    }
    expect(missing, `entry points without a gas figure in docs/contracts.md: ${missing.join(", ")}`).to.deep.equal([]);
    for (const known of ["LmsrFactory.setFeeDefaults", "LmsrMarket.redeemAll", "OrderbookFactory.setFeeDefaults", "CommittedLedger.commitJournalBatch"]) {
      expect(entryPoints, known).to.include(known);
    }
  });
});
