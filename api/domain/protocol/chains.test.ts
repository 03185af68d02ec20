import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { buildCollateral, buildContracts, buildTokenRelease } from "./chains";
import { deploymentSchema } from "./deployment";
import { TokenSupplyReader } from "./token-supply";
import { freePort } from "../../../test/support/ports";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const deployment = deploymentSchema.parse({
  chainId: 8453,
  contracts: {
    CommittedLedger: { address: a(1), blockNumber: 1 },
    PlayMoney: { address: a(2), blockNumber: 2, txHash: "0x" + "ab".repeat(32) },
    OutcomeToken: { address: a(3), blockNumber: 3 },
    BinaryFactory: { address: a(4), blockNumber: 4 },
    TernaryFactory: { address: a(5), blockNumber: 5 },
  },
  collaterals: [{ symbol: "USDC", token: a(6), decimals: 6, router: a(7) }],
  routerInterface: {
    abiVersion: "1",
    runtimeCodeHash: "0x" + "cd".repeat(32),
    functions: {
      executeTradeIntent: { signature: "executeTradeIntent(...)", selector: "0x12345678" },
      executeBasketIntent: { signature: "executeBasketIntent(...)", selector: "0x87654321" },
    },
  },
});

describe("chain documents", () => {
  it("lists PM on the committed lane and router collaterals on chain", () => {
    const tokens = buildCollateral(deployment).tokens;
    assert.deepEqual(
      tokens.map((t) => [t.symbol, t.settlement]),
      [
        ["PM", "committed"],
        ["USDC", "onchain"],
      ],
    );
  });
  it("gives every collateral the router as spender of its approvals, and a null orderbook factory", () => {
    const entry = buildContracts(deployment).chains[0];
    assert.equal(entry.factories.orderbook, null);
    assert.equal(entry.approvals.length, 2);
    for (const r of entry.approvals) assert.equal(r.spender, a(7));
    assert.equal(entry.approvals[0].amount, ((1n << 256n) - 1n).toString());
    assert.equal(buildContracts(deployment, { collateral: "pm" }).chains[0].collaterals.length, 0);
  });
  it("marks the token release deployed from the PM record", () => {
    const r = buildTokenRelease(deployment);
    assert.equal(r.deployed, true);
    assert.equal(r.origin?.address, a(2));
    assert.equal(r.stage, "production");
    // An artifact written before the hashes were recorded: served as null, not invented.
    assert.equal(r.origin?.deploymentBlockHash, null);
    assert.equal(r.origin?.runtimeCodeHash, null);
  });
  it("serves supply 0 with no read instant while the chain does not answer", async () => {
    const port = await freePort(); // nothing listens there
    const supply = await new TokenSupplyReader(`http://127.0.0.1:${port}`, () => 1).read(a(2) as `0x${string}`);
    assert.deepEqual(supply, { totalSupply: null, readAt: null });
    const r = buildTokenRelease(deployment, supply);
    assert.equal(r.token.totalSupplyWei, "0");
    assert.equal(r.token.totalSupplyReadAt, null);
  });
});
