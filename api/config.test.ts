import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, configSchema, loadConfig } from "./config";

describe("loadConfig", () => {
  it("has embedded defaults", () => {
    const c = loadConfig({}, "/srv");
    assert.equal(c.PORT, 8080);
    assert.equal(c.CHAIN_ID, 8453);
    assert.equal(c.storage, "pglite");
    assert.equal(c.dataDir, "/srv/.data");
    assert.equal(c.rpcUrl, "http://127.0.0.1:8545");
  });
  it("chooses Postgres when DATABASE_URL is set", () => {
    assert.equal(loadConfig({ DATABASE_URL: "postgres://u@127.0.0.1/db" }).storage, "postgres");
  });
  it("names the bad variable in one line", () => {
    assert.throws(() => loadConfig({ PORT: "eighty" }), (e: unknown) => e instanceof ConfigError && e.variable === "PORT" && /^configuration: PORT /.test(e.message) && !e.message.includes("\n"));
    assert.throws(() => loadConfig({ RPC_URL: "not a url" }), (e: unknown) => e instanceof ConfigError && e.variable === "RPC_URL");
    assert.throws(() => loadConfig({ PONDER_POLLING_MS: "fast" }), (e: unknown) => e instanceof ConfigError && e.variable === "PONDER_POLLING_MS");
    assert.throws(() => loadConfig({ PONDER_LOG_LEVEL: "loud" }), (e: unknown) => e instanceof ConfigError && e.variable === "PONDER_LOG_LEVEL");
  });
  it("is documented: the README's configuration table names every variable", () => {
    const readme = readFileSync(join(__dirname, "..", "README.md"), "utf8");
    const missing = Object.keys(configSchema.shape).filter((name) => !readme.includes(`| \`${name}\` |`));
    assert.deepEqual(missing, []);
  });
});
