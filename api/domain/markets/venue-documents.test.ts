import { strict as assert } from "node:assert";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { currentDeployment } from "./venue-documents";

const TOKEN = "0x1111111111111111111111111111111111111111";
const ROUTER = "0x2222222222222222222222222222222222222222";
const artifact = (symbol: string) =>
  JSON.stringify({ chainId: 8453, contracts: {}, collaterals: [{ symbol, token: TOKEN, decimals: 6, router: ROUTER }], routerInterface: null });

describe("currentDeployment", () => {
  const dir = mkdtempSync(join(tmpdir(), "pm-deployment-"));
  const config = { CHAIN_ID: 8453, deploymentFile: join(dir, "8453.json") };
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("is empty before the deployment, then follows each rewrite of the file, and parses an unchanged file once", () => {
    assert.deepEqual(currentDeployment(config).collaterals, []);
    writeFileSync(config.deploymentFile, artifact("USDC"));
    const first = currentDeployment(config);
    assert.equal(first.collaterals[0]?.symbol, "USDC");
    assert.equal(currentDeployment(config), first, "an unchanged file is not parsed again");
    // A new deployment replaces the file by a rename (a new inode), as an atomic writer does.
    writeFileSync(join(dir, "next.json"), artifact("EURC"));
    renameSync(join(dir, "next.json"), config.deploymentFile);
    assert.equal(currentDeployment(config).collaterals[0]?.symbol, "EURC");
    // Rewritten in place with a different size.
    writeFileSync(config.deploymentFile, artifact("USDT0"));
    assert.equal(currentDeployment(config).collaterals[0]?.symbol, "USDT0");
    rmSync(config.deploymentFile);
    assert.deepEqual(currentDeployment(config).collaterals, []);
  });
});
