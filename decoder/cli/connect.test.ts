/**
 * Which ledger `decode` replays and from which block. The ABI is a fixture shaped like the CommittedLedger's
 * batch functions (the e2e test drives the same choices through the real CLI and contract).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeFunctionData, parseAbi, type Address, type Hex, type PublicClient } from "viem";
import { readDeployment, txTarget, verifyTarget, type Chain, type Deployment } from "./connect";
import { ReplayError } from "../replay/errors";

const abi = parseAbi([
  "function commitJournalBatch(uint64 expectedNonce, bytes32 prevRoot, bytes32 newRoot, bytes32 prevJournalCommitment, bytes32 payloadHash, bytes payload)",
  "function treasury() view returns (address)",
]);
const chain: Chain = { client: {} as PublicClient, chainId: 31337 };
const DEMO: Address = "0x00000000000000000000000000000000000000d1";
const STARTED: Address = "0x00000000000000000000000000000000000000a1";
const ZERO: Hex = `0x${"00".repeat(32)}`;
const batchInput = encodeFunctionData({ abi, functionName: "commitJournalBatch", args: [1n, ZERO, ZERO, ZERO, ZERO, "0x"] });
const tx = (to: Address | null, input: Hex = batchInput) => ({ hash: `0x${"ab".repeat(32)}` as Hex, to, input, blockNumber: 40n });
const deployment = (address: Address, blockNumber = 7n): Deployment => ({ file: "deployments/31337.json", address, blockNumber });

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ReplayError, `expected a ReplayError, got ${String(e)}`);
    return e.code;
  }
  assert.fail("no error");
}

describe("decode: which ledger, from which block", () => {
  it("decode <tx> without --ledger replays the ledger the transaction calls, over a deployments file naming another, and says so", () => {
    const notes: string[] = [];
    const target = txTarget(chain, tx(DEMO), abi, {}, deployment(STARTED), (l) => notes.push(l));
    assert.equal(target.ledger, DEMO);
    assert.equal(target.fromBlock, 0n, "the deployment block belongs to the other ledger");
    assert.equal(notes.length, 1);
    assert.ok(notes[0].includes(DEMO) && notes[0].includes(STARTED) && notes[0].includes("deployments/31337.json"), notes[0]);
  });

  it("starts at the deployment block when the deployments file names the same ledger, and --from-block overrides it", () => {
    const notes: string[] = [];
    assert.equal(txTarget(chain, tx(DEMO), abi, {}, deployment(DEMO, 12n), (l) => notes.push(l)).fromBlock, 12n);
    assert.equal(txTarget(chain, tx(DEMO), abi, { ledger: DEMO }, deployment(DEMO, 12n), (l) => notes.push(l)).fromBlock, 12n);
    assert.equal(txTarget(chain, tx(DEMO), abi, { fromBlock: 3n }, deployment(DEMO, 12n), (l) => notes.push(l)).fromBlock, 3n);
    assert.deepEqual(notes, []);
    assert.equal(
      code(() => txTarget(chain, tx(DEMO), abi, { fromBlock: 41n }, null, () => undefined)),
      "BAD_INPUT",
    );
  });

  it("a transaction that is not a batch call to the ledger is NOT_A_BATCH, whatever its calldata", () => {
    const none = () => undefined;
    assert.equal(
      code(() => txTarget(chain, tx(STARTED, "0xdeadbeef00"), abi, {}, null, none)),
      "NOT_A_BATCH",
    );
    assert.equal(
      code(() => txTarget(chain, tx(STARTED, "0x"), abi, {}, null, none)),
      "NOT_A_BATCH",
    );
    assert.equal(
      code(() => txTarget(chain, tx(null), abi, {}, null, none)),
      "NOT_A_BATCH",
    );
    assert.equal(
      code(() => txTarget(chain, tx(STARTED, "0xdeadbeef00"), abi, { ledger: DEMO }, null, none)),
      "NOT_A_BATCH",
    );
    const readCall = encodeFunctionData({ abi, functionName: "treasury" });
    assert.equal(
      code(() => txTarget(chain, tx(DEMO, readCall), abi, {}, null, none)),
      "NOT_A_BATCH",
    );
    assert.equal(
      code(() => txTarget(chain, tx(DEMO), abi, { ledger: "not-an-address" }, null, none)),
      "BAD_INPUT",
    );
  });

  it("decode verify keeps the deployments default (and its block); without one it is NO_LEDGER_ADDRESS", () => {
    assert.deepEqual((({ ledger, fromBlock }) => ({ ledger, fromBlock }))(verifyTarget(chain, {}, deployment(STARTED, 9n))), {
      ledger: STARTED,
      fromBlock: 9n,
    });
    assert.equal(verifyTarget(chain, { ledger: DEMO }, deployment(STARTED, 9n)).fromBlock, 0n);
    assert.equal(
      code(() => verifyTarget(chain, {}, null)),
      "NO_LEDGER_ADDRESS",
    );
  });

  it("reads <dir>/<chainId>.json", () => {
    const dir = mkdtempSync(join(tmpdir(), "decode-connect-"));
    try {
      writeFileSync(join(dir, "31337.json"), JSON.stringify({ contracts: { CommittedLedger: { address: STARTED, blockNumber: 5 } } }));
      writeFileSync(join(dir, "8453.json"), JSON.stringify({ contracts: { PlayMoney: { address: DEMO } } }));
      assert.deepEqual(readDeployment(dir, 31337), { file: join(dir, "31337.json"), address: STARTED, blockNumber: 5n });
      assert.equal(readDeployment(dir, 8453), null);
      assert.equal(readDeployment(dir, 1), null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
