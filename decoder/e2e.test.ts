/**
 * End to end: a Hardhat node, ledger:demo's batches, then `decode <last tx> --rpc … --json` through the npx
 * launcher. The JSON balances are checked with a naive implementation of the spec's root rule (written here
 * with viem) against the chain's `ledgerRoot()`. Skipped (with the reason) until the CommittedLedger is compiled.
 */
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createPublicClient, encodePacked, hexToBigInt, http, keccak256, concat, type Address, type Hex } from "viem";
import { runLedgerDemo } from "../scripts/ledger-demo";
import { committedLedgerAbi } from "./replay/abi";

const root = join(__dirname, "..");
const ready = existsSync(join(root, "generated", "abis.ts")) && (() => {
  try {
    committedLedgerAbi();
    return true;
  } catch {
    return false;
  }
})();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** The spec's root rule, naively: sort, double-hash leaves, sorted pairs, odd node promoted. */
function naiveRoot(balances: { account: string; assetId: string; balance: string }[]): Hex {
  const rows = balances
    .filter((b) => BigInt(b.balance) !== 0n && hexToBigInt(b.account as Hex) !== 0n)
    .sort((a, b) => {
      const x = hexToBigInt(a.account as Hex);
      const y = hexToBigInt(b.account as Hex);
      if (x !== y) return x < y ? -1 : 1;
      return BigInt(a.assetId) < BigInt(b.assetId) ? -1 : BigInt(a.assetId) > BigInt(b.assetId) ? 1 : 0;
    });
  let level: Hex[] = rows.map((r) => keccak256(keccak256(encodePacked(["address", "uint256", "int256"], [r.account as Address, BigInt(r.assetId), BigInt(r.balance)]))));
  if (level.length === 0) return `0x${"00".repeat(32)}`;
  while (level.length > 1) {
    const next: Hex[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) {
      const [a, b] = [level[i], level[i + 1]];
      next.push(keccak256(hexToBigInt(a) <= hexToBigInt(b) ? concat([a, b]) : concat([b, a])));
    }
    if (level.length % 2) next.push(level[level.length - 1]);
    level = next;
  }
  return level[0];
}

describe("decoder end to end", { skip: ready ? false : "CommittedLedger not compiled (generated/abis.ts lacks committedLedgerAbi)" }, () => {
  let node: ChildProcess;
  let rpc: string;
  let ledgerAddress: Address;

  before(async () => {
    const port = await freePort();
    rpc = `http://127.0.0.1:${port}`;
    node = spawn("npx", ["hardhat", "node", "--hostname", "127.0.0.1", "--port", String(port)], { cwd: root, stdio: "ignore", detached: true });
    const client = createPublicClient({ transport: http(rpc, { retryCount: 0 }) });
    for (let i = 0; i < 120; i++) {
      if (await client.getChainId().then(() => true, () => false)) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error("hardhat node did not start");
  });

  after(() => {
    if (node?.pid) process.kill(-node.pid, "SIGTERM");
  });

  it("replays the demo batches and the JSON balances give the chain's ledgerRoot()", async () => {
    const { ledger, batches } = await runLedgerDemo({ rpc, batches: 3, seed: 7, root, legacy: true });
    assert.equal(batches.length, 3);
    ledgerAddress = ledger;
    const last = batches[2];
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile("npx", ["decode", last.txHash, "--rpc", rpc, "--ledger", ledger, "--json"], { cwd: root }, (err, stdout) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });
    assert.equal(code, 0, stdout);
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!);
    assert.equal(result.nonce, "3");
    assert.equal(result.rootOk, true);
    assert.equal(result.commitmentOk, true);
    const client = createPublicClient({ transport: http(rpc) });
    const chainRoot = await client.readContract({ address: ledger, abi: committedLedgerAbi(), functionName: "ledgerRoot" });
    assert.equal(naiveRoot(result.balances), chainRoot);
    assert.equal(result.root, chainRoot);
  });

  it("decode verify replays every batch, the legacy one included", async () => {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile("npx", ["decode", "verify", "--rpc", rpc, "--ledger", ledgerAddress], { cwd: root }, (err, stdout) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });
    assert.equal(code, 0, stdout);
    assert.match(stdout, /3 batch\(es\) verified/);
  });
});
