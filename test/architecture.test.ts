/**
 * Dependencies point one way (docs/stack.md, the architecture's "parts"): `api -> relayer -> decoder`,
 * `indexer -> decoder`, `scripts -> anything`, and the decoder imports nothing of ours. The product (the service and
 * what `npm start` starts and runs) imports nothing of test/; tests import no script but the stack's launcher
 * (scripts/stack/), which they share with `npm start`. Inside api/ (docs/api.md, "Layers inside api/"), the domain
 * and the platform sit below the transports, the operations and the composition that wires them (services.ts,
 * app.ts), the transports over the operations over the registry, and the platform below the domain and the registry:
 * a lower layer takes what it needs as arguments. Every import of every .ts file under the project's folders is read (static,
 * `export … from`, dynamic `import()` and `require()`) and each one that breaks a rule is reported with its file and
 * line.
 */
import { strict as assert } from "node:assert";
import { type Dirent, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize, relative, sep } from "node:path";
import { describe, it } from "node:test";
import ts from "typescript";

const ROOT = join(__dirname, "..");
const FOLDERS = ["api", "relayer", "decoder", "indexer", "scripts", "test"] as const;
type Folder = (typeof FOLDERS)[number];
const SKIP = new Set(["node_modules", ".ponder", ".data", "generated", "artifacts", "cache"]);

/**
 * The folders a folder may not import; `scripts` is imported by nothing outside scripts/ but its stack launcher, which
 * the tests share (TESTS_MAY_IMPORT).
 */
const FORBIDDEN: Record<Folder, readonly Folder[]> = {
  api: ["scripts"],
  relayer: ["api", "scripts"],
  decoder: ["api", "relayer", "indexer", "scripts", "test"],
  indexer: ["api", "relayer", "scripts"],
  scripts: [],
  test: ["scripts"],
};

/** What the tests (test/ and every `*.test.ts`) may import although FORBIDDEN names its folder: they start chains and children with npm start's own launcher. */
const TESTS_MAY_IMPORT = ["scripts/stack"];

/**
 * Layers (module paths, no extension): a file under `from` may not import one under `forbidden`. Its tests may (they
 * start the whole service). Inside api/, the layers of docs/api.md; around it, what runs in the product (the service
 * and what `npm start` starts and runs) does not lean on the tests' support.
 */
const LAYERS = [
  {
    from: ["api/domain", "api/platform"],
    forbidden: ["api/transports", "api/operations", "api/services", "api/app", "api/service", "api/main"],
    rule: "the domain and the platform must not import transports, operations or the composition",
  },
  { from: ["api/platform"], forbidden: ["api/domain", "api/registry"], rule: "the platform must not import the domain or the registry" },
  { from: ["api/domain"], forbidden: ["api/registry"], rule: "the domain must not import the registry" },
  {
    from: ["api/registry"],
    forbidden: ["api/transports", "api/operations"],
    rule: "the registry must not import transports or operations",
  },
  { from: ["api/operations"], forbidden: ["api/transports"], rule: "operations must not import transports" },
  {
    from: ["api/services", "api/registry", "api/operations", "api/transports"],
    forbidden: ["api/open-services", "api/app", "api/service", "api/main"],
    rule: "the container's type, the registry, operations and transports must not import the composition",
  },
  {
    from: ["api/services"],
    forbidden: ["api/transports", "api/operations", "api/registry"],
    rule: "the services container names domain and platform types only",
  },
  {
    from: ["api", "relayer", "decoder", "indexer", "scripts/start", "scripts/stack", "scripts/demo-agents", "scripts/agent"],
    forbidden: ["test"],
    rule: "the product (the service, npm start and what it runs) must not import the tests' support",
  },
] as const;

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

interface Violation {
  file: string;
  line: number;
  specifier: string;
  rule: string;
}

function tsFiles(dir: string, out: string[] = []): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (SKIP.has(e.name)) continue;
    const full = join(dir, e.name);
    if (e.isDirectory()) tsFiles(full, out);
    else if (e.name.endsWith(".ts")) out.push(full);
  }
  return out;
}

/** Every import that breaks a rule, in the tree under `root`. */
function violations(root: string): Violation[] {
  const found: Violation[] = [];
  for (const from of FOLDERS) {
    for (const file of tsFiles(join(root, from))) {
      const text = readFileSync(file, "utf8");
      for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
        if (!ref.fileName.startsWith(".")) continue; // packages and Ponder's virtual modules
        const targetPath = relative(root, normalize(join(dirname(file), ref.fileName)))
          .split(sep)
          .join("/")
          .replace(/\.(ts|js|cjs)$/, "");
        const filePath = relative(root, file).split(sep).join("/");
        const line = text.slice(0, ref.pos).split("\n").length;
        const at = { file: filePath, line, specifier: ref.fileName };
        const target = targetPath.split("/")[0] as Folder;
        const isTest = from === "test" || filePath.endsWith(".test.ts");
        const excepted = isTest && TESTS_MAY_IMPORT.some((d) => under(targetPath, d));
        if (target !== from && FORBIDDEN[from].includes(target) && !excepted) found.push({ ...at, rule: `${from} must not import ${target}` });
        if (filePath.endsWith(".test.ts")) continue;
        const modulePath = filePath.replace(/\.(ts|js|cjs)$/, "");
        for (const layer of LAYERS) {
          if (layer.from.some((d) => under(modulePath, d)) && layer.forbidden.some((d) => under(targetPath, d))) found.push({ ...at, rule: layer.rule });
        }
      }
    }
  }
  return found;
}

const report = (vs: Violation[]) => vs.map((v) => `${v.file}:${v.line} imports "${v.specifier}" (${v.rule})`).join("\n");

describe("dependency direction", () => {
  it("holds for every import of the project", () => {
    const vs = violations(ROOT);
    assert.equal(
      vs.length,
      0,
      `imports against the direction (api -> relayer -> decoder, indexer -> decoder, scripts -> anything; the product not on test/; api's layers):\n${report(vs)}`,
    );
  });

  it("reports each kind of offending import with its file and line", () => {
    const root = mkdtempSync(join(tmpdir(), "arch-"));
    try {
      const put = (path: string, text: string) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      put("relayer/a.ts", `import { x } from "../api/config";\nexport const y = 1;\n`);
      put("relayer/b.ts", `\n\nconst m = require("../scripts/deploy");\n`);
      put("decoder/c.ts", `export { z } from "../test/support/db";\n`);
      put("indexer/src/d.ts", `const r = await import("../../relayer/clock");\n`);
      put("api/e.ts", `import "../scripts/seed/cli";\nimport { ok } from "../relayer/clock";\n`);
      put("scripts/f.ts", `import { ok } from "./g";\nimport { api } from "../api/config";\n`);
      put("test/h.ts", `import type { T } from "../decoder/x";\n`);
      put("api/domain/i.ts", `import type { Services } from "../services";\nimport { a } from "../platform/a";\n`);
      put("api/platform/j/k.ts", `\nimport { s } from "../../transports/webhooks/worker.ts";\nimport type { P } from "../../domain/auth/principal";\n`);
      put("api/domain/l.test.ts", `import { startService } from "../service";\n`);
      put("api/domain/s.ts", `import type { AnyOperation } from "../registry/types";\n`);
      put("api/registry/t.ts", `import type { KeyPrincipal } from "../domain/auth/principal";\n`);
      put("api/services.ts", `import type { EventHub } from "./transports/realtime/hub";\nimport type { Venue } from "./domain/venue/types";\n`);
      put("api/registry/v.ts", `import { mcpTools } from "../transports/mcp/tools";\nimport type { X } from "../operations/index";\n`);
      put("api/operations/w/x.ts", `import { worker } from "../../transports/webhooks/worker";\nimport { ok } from "../../domain/webhooks/store";\n`);
      put("api/transports/u.ts", `import { createServices } from "../open-services";\nimport type { Services } from "../services";\n`);
      put("test/m.ts", `import { startChild } from "../scripts/stack/children";\n`);
      put("relayer/q.test.ts", `import { startChain } from "../scripts/stack/chain";\n`);
      put("relayer/r.ts", `import { startChain } from "../scripts/stack/chain";\n`);
      put("scripts/stack/n.ts", `import { freePort } from "../../test/support/ports";\n`);
      put("scripts/bench-o.ts", `import { freePort } from "../test/support/ports";\n`);
      put("relayer/p.ts", `import { seededRandom } from "../test/support/seeded-random";\n`);
      const vs = violations(root)
        .map((v) => `${v.file}:${v.line} ${v.rule}`)
        .sort();
      assert.deepEqual(vs, [
        "api/domain/i.ts:1 the domain and the platform must not import transports, operations or the composition",
        "api/domain/s.ts:1 the domain must not import the registry",
        "api/e.ts:1 api must not import scripts",
        "api/operations/w/x.ts:1 operations must not import transports",
        "api/platform/j/k.ts:2 the domain and the platform must not import transports, operations or the composition",
        "api/platform/j/k.ts:3 the platform must not import the domain or the registry",
        "api/registry/v.ts:1 the registry must not import transports or operations",
        "api/registry/v.ts:2 the registry must not import transports or operations",
        "api/services.ts:1 the services container names domain and platform types only",
        "api/transports/u.ts:1 the container's type, the registry, operations and transports must not import the composition",
        "decoder/c.ts:1 decoder must not import test",
        "decoder/c.ts:1 the product (the service, npm start and what it runs) must not import the tests' support",
        "indexer/src/d.ts:1 indexer must not import relayer",
        "relayer/a.ts:1 relayer must not import api",
        "relayer/b.ts:3 relayer must not import scripts",
        "relayer/p.ts:1 the product (the service, npm start and what it runs) must not import the tests' support",
        "relayer/r.ts:1 relayer must not import scripts",
        "scripts/stack/n.ts:1 the product (the service, npm start and what it runs) must not import the tests' support",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
