import { strict as assert } from "node:assert";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY } from "../relayer/dev-accounts";
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
    assert.throws(
      () => loadConfig({ PORT: "eighty" }),
      (e: unknown) => e instanceof ConfigError && e.variable === "PORT" && /^configuration: PORT /.test(e.message) && !e.message.includes("\n"),
    );
    assert.throws(
      () => loadConfig({ RPC_URL: "not a url" }),
      (e: unknown) => e instanceof ConfigError && e.variable === "RPC_URL",
    );
    assert.throws(
      () => loadConfig({ PONDER_POLLING_MS: "fast" }),
      (e: unknown) => e instanceof ConfigError && e.variable === "PONDER_POLLING_MS",
    );
    assert.throws(
      () => loadConfig({ PONDER_LOG_LEVEL: "loud" }),
      (e: unknown) => e instanceof ConfigError && e.variable === "PONDER_LOG_LEVEL",
    );
  });
  it("refuses the Hardhat dev keys off a local chain, naming the variable", () => {
    const own = `0x${"11".repeat(32)}`;
    const live = "https://mainnet.base.org";
    assert.throws(
      () => loadConfig({ RPC_URL: live }),
      (e: unknown) => e instanceof ConfigError && e.variable === "DEPLOYER_PRIVATE_KEY" && /public dev key/.test(e.message),
    );
    assert.throws(
      () => loadConfig({ RPC_URL: live, DEPLOYER_PRIVATE_KEY: own }),
      (e: unknown) => e instanceof ConfigError && e.variable === "OPERATOR_PRIVATE_KEY",
    );
    assert.throws(
      () => loadConfig({ RPC_URL: live, DEPLOYER_PRIVATE_KEY: own, OPERATOR_PRIVATE_KEY: DEV_OPERATOR_KEY.toUpperCase().replace("0X", "0x") }),
      (e: unknown) => e instanceof ConfigError && e.variable === "OPERATOR_PRIVATE_KEY",
    );
    assert.equal(loadConfig({ RPC_URL: live, DEPLOYER_PRIVATE_KEY: own, OPERATOR_PRIVATE_KEY: `0x${"22".repeat(32)}` }).rpcUrl, live);
    // Local chains keep the defaults: the own node, a fork, a loopback RPC.
    for (const env of [{}, { FORK_URL: live }, { RPC_URL: "http://127.0.0.1:8545" }, { RPC_URL: "http://localhost:9545" }])
      assert.equal(loadConfig(env).DEPLOYER_PRIVATE_KEY, DEV_DEPLOYER_KEY);
  });
  it("is documented: the README's configuration table names every variable", () => {
    const readme = readFileSync(join(__dirname, "..", "README.md"), "utf8");
    const missing = Object.keys(configSchema.shape).filter((name) => !readme.includes(`| \`${name}\` |`));
    assert.deepEqual(missing, []);
  });
});
