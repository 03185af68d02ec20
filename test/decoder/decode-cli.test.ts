/**
 * End to end: a Hardhat node, ledger:demo's batches, then `decode <last tx> --rpc … --json` through the npx
 * launcher. The JSON balances are checked with a naive implementation of the spec's root rule (written here
 * with viem) against the chain's `ledgerRoot()`. Then the literal check, both ends as child processes:
 * `npm run ledger:demo -- --rpc <url>` and `npx decode <last tx> --rpc <url>` without --ledger, next to a
 * deployments file naming another ledger. Skipped (with the reason) until the CommittedLedger is compiled.
 */
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createPublicClient,
  createWalletClient,
  encodePacked,
  hexToBigInt,
  http,
  keccak256,
  concat,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { runLedgerDemo } from "../support/ledger-demo";
import { freePort } from "../support/ports";
import { startChain } from "../../scripts/stack/chain";
import { rpcChain } from "../../relayer/rpc-chain";
import { committedLedgerAbi } from "../../decoder/replay/abi";
import { replayLedger } from "../../decoder/replay/replay";
import { encodePayload } from "../../decoder/journal/codec";
import { applyOps } from "../../decoder/journal/movements";
import { journalCommitmentOf } from "../../decoder/journal/commitment";
import { ballotHashOf } from "../../decoder/journal/ballot";
import type { JournalOp } from "../../decoder/journal/ops";

const root = join(__dirname, "..", "..");
const ready =
  existsSync(join(root, "generated", "abis.ts")) &&
  (() => {
    try {
      committedLedgerAbi();
      return true;
    } catch {
      return false;
    }
  })();

/** Runs a command in the repository as a user would; never throws on a non-zero exit. */
function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: root, timeout: 180_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Hardhat's first development key (public knowledge): the operator of the ledgers ledger:demo deploys. */
const OPERATOR_KEY: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

/** Commits each list of ops as one journal batch on top of the ledger's replayed state; returns the tx hashes. */
async function commitJournalBatches(rpc: string, ledger: Address, batches: JournalOp[][]): Promise<Hex[]> {
  const client = createPublicClient({ transport: http(rpc) }) as PublicClient;
  const chain = rpcChain(await client.getChainId(), rpc);
  const wallet = createWalletClient({ chain, account: privateKeyToAccount(OPERATOR_KEY), transport: http(rpc) });
  const abi = committedLedgerAbi();
  const { state, batches: done } = await replayLedger({ client, ledger });
  let nonce = done.at(-1)!.nonce;
  let prevRoot = done.at(-1)!.computedRoot;
  let commitment = done.at(-1)!.computedCommitment;
  const treasury = (await client.readContract({ address: ledger, abi, functionName: "treasury" })) as Address;
  const hashes: Hex[] = [];
  for (const ops of batches) {
    const payload = toHex(encodePayload(ops, { treasury }));
    applyOps(state, ops, { treasury });
    const newRoot = await state.root();
    nonce += 1n;
    const hash = await wallet.writeContract({
      address: ledger,
      abi,
      functionName: "commitJournalBatch",
      args: [nonce, prevRoot, newRoot, commitment, keccak256(payload), payload],
    });
    assert.equal((await client.waitForTransactionReceipt({ hash })).status, "success");
    commitment = journalCommitmentOf(commitment, nonce, newRoot, keccak256(payload));
    prevRoot = newRoot;
    hashes.push(hash);
  }
  return hashes;
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
  let level: Hex[] = rows.map((r) =>
    keccak256(keccak256(encodePacked(["address", "uint256", "int256"], [r.account as Address, BigInt(r.assetId), BigInt(r.balance)]))),
  );
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
  let chain: Awaited<ReturnType<typeof startChain>> | undefined;
  let rpc: string;
  let ledgerAddress: Address;

  // startChain refuses a port where a chain already answers and fails if its own node exits before answering, so
  // this test never runs against another test's chain.
  before(async () => {
    chain = await startChain(await freePort());
    rpc = chain.rpcUrl;
  });

  after(async () => {
    await chain?.stop();
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

  it("`npm run ledger:demo -- --rpc` then `npx decode <last tx> --rpc` exits 0, even next to a deployments file naming another ledger", async () => {
    // An unrelated ledger with batches of its own, named by deployments files for both chain ids a local chain
    // may have (8453, Hardhat's here; 31337, Hardhat's default), as `npm start` would leave them. A temporary
    // directory, so the repository's deployments/ stays untouched.
    const other = await runLedgerDemo({ rpc, batches: 2, seed: 3, root });
    const dir = mkdtempSync(join(tmpdir(), "decode-deployments-"));
    try {
      for (const chainId of [31337, 8453]) {
        writeFileSync(join(dir, `${chainId}.json`), JSON.stringify({ chainId, contracts: { CommittedLedger: { address: other.ledger, blockNumber: 0 } } }));
      }

      const demo = await run("npm", ["run", "--silent", "ledger:demo", "--", "--rpc", rpc, "--batches", "2"]);
      assert.equal(demo.code, 0, demo.stderr);
      const lines = demo.stdout
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { txHash: Hex; nonce: string; root: Hex; ledger: Address });
      assert.equal(lines.length, 2, demo.stdout);
      assert.deepEqual(Object.keys(lines[0]), ["txHash", "nonce", "root", "ledger"]);
      const last = lines[1];
      assert.notEqual(last.ledger.toLowerCase(), other.ledger.toLowerCase());
      const client = createPublicClient({ transport: http(rpc) });
      assert.equal(
        (await client.getTransaction({ hash: last.txHash })).to?.toLowerCase(),
        last.ledger.toLowerCase(),
        "the line names the ledger the batch was sent to",
      );

      const decoded = await run("npx", ["--no-install", "decode", last.txHash, "--rpc", rpc, "--deployments", dir]);
      assert.equal(decoded.code, 0, `${decoded.stdout}\n${decoded.stderr}`);
      assert.match(decoded.stdout, /^batch nonce 2 \(journal\)/m);
      assert.match(decoded.stdout, /^root ok$/m);
      assert.match(decoded.stdout, /^commitment ok$/m);
      // The transaction's own ledger wins over the deployments file, and stderr says so.
      assert.ok(decoded.stderr.toLowerCase().includes(last.ledger.toLowerCase()), decoded.stderr);
      assert.ok(decoded.stderr.toLowerCase().includes(other.ledger.toLowerCase()), decoded.stderr);

      // `decode verify` keeps the deployments default: it replays the other ledger's two batches.
      const verified = await run("npx", ["--no-install", "decode", "verify", "--rpc", rpc, "--deployments", dir]);
      assert.equal(verified.code, 0, `${verified.stdout}\n${verified.stderr}`);
      assert.match(verified.stdout, /^2 batch\(es\) verified; nonce 2 /m);
      assert.equal(
        verified.stdout.match(/root (0x[0-9a-f]{64})/)?.[1],
        await client.readContract({ address: other.ledger, abi: committedLedgerAbi(), functionName: "ledgerRoot" }),
      );

      // A scan started after the ledger's first batch says so instead of reporting a bare root mismatch.
      const firstBlock = (await client.getTransaction({ hash: lines[0].txHash })).blockNumber!;
      const late = await run("npx", ["--no-install", "decode", last.txHash, "--rpc", rpc, "--from-block", String(firstBlock + 1n), "--deployments", dir]);
      assert.equal(late.code, 1, `${late.stdout}\n${late.stderr}`);
      assert.match(late.stdout, /expected batch nonce 1 but found 2: earlier batches were not read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a transaction that is not a batch commit is NOT_A_BATCH (exit 2), not a raw ABI error", async () => {
    const client = createPublicClient({ transport: http(rpc) });
    const [from] = (await client.request({ method: "eth_accounts" } as never)) as Address[];
    const hash = (await client.request({
      method: "eth_sendTransaction",
      params: [{ from, to: "0x00000000000000000000000000000000000000e0", data: "0xdeadbeef00" }],
    } as never)) as Hex;
    await client.waitForTransactionReceipt({ hash });
    const out = await run("npx", ["--no-install", "decode", hash, "--rpc", rpc]);
    assert.equal(out.code, 2, `${out.stdout}\n${out.stderr}`);
    assert.match(out.stderr, /^decode: NOT_A_BATCH: transaction 0x[0-9a-f]{64} to 0x0+e0 is not a CommittedLedger batch call/m);
  });

  it("a lifecycle batch: decode sums up the market and checks its ballots against locks of an earlier batch; a changed ballot exits 1", async () => {
    const { ledger } = await runLedgerDemo({ rpc, batches: 1, seed: 5, root });
    const [C, D, E] = [
      "0x00000000000000000000000000000000000000c1",
      "0x00000000000000000000000000000000000000d1",
      "0x00000000000000000000000000000000000000e1",
    ] as Address[];
    const salt = (n: number): Hex => `0x${n.toString(16).padStart(2, "0").repeat(32)}`;
    const lock = (marketId: bigint, account: Address, outcome: 0 | 1, s: number): JournalOp => ({
      type: "STAKE_LOCK",
      marketId,
      session: 1,
      account,
      amount: 100n,
      ballotHash: ballotHashOf({ marketId, session: 1, account, outcome, salt: salt(s) }),
    });
    const reveal = (marketId: bigint, account: Address, outcome: 0 | 1, s: number): JournalOp => ({
      type: "BALLOT_REVEAL",
      marketId,
      session: 1,
      account,
      outcome,
      salt: salt(s),
    });
    const grant = (account: Address): JournalOp => ({ type: "CREDIT", account, assetId: 0n, amount: 1_000n, reason: 0 });
    const [, resolvedTx, , changedTx] = await commitJournalBatches(rpc, ledger, [
      [grant(C), grant(D), grant(E), { type: "MARKET_STATE", marketId: 40n, state: "human_voting", outcome: 255 }, lock(40n, C, 1, 1), lock(40n, D, 0, 2)],
      [
        { type: "MARKET_STATE", marketId: 40n, state: "council_review", outcome: 1 },
        reveal(40n, C, 1, 1),
        reveal(40n, D, 0, 2),
        { type: "MARKET_STATE", marketId: 40n, state: "resolved", outcome: 1 },
        { type: "STAKE_RETURN", marketId: 40n, session: 1, account: C, amount: 100n },
        { type: "VOTE_REWARD", marketId: 40n, session: 1, account: C, amount: 100n },
      ],
      [lock(41n, E, 1, 3)],
      [reveal(41n, E, 0, 3)],
    ]);

    const resolved = await run("npx", ["--no-install", "decode", resolvedTx, "--rpc", rpc]);
    assert.equal(resolved.code, 0, `${resolved.stdout}\n${resolved.stderr}`);
    assert.match(
      resolved.stdout,
      /^lifecycle:\n {2}market 40: council_review \(outcome 1\), resolved \(outcome 1\)\n {4}ballots revealed: 2 \(outcome 0: 1, outcome 1: 1\)\n {4}STAKE_RETURN: 1 totalling 100\n {4}VOTE_REWARD: 1 totalling 100$/m,
    );
    assert.match(resolved.stdout, /^ballots ok \(2 reveal\(s\) match their commitments\)$/m);

    const changed = await run("npx", ["--no-install", "decode", changedTx, "--rpc", rpc, "--json"]);
    assert.equal(changed.code, 1, `${changed.stdout}\n${changed.stderr}`);
    const json = JSON.parse(changed.stdout.trim().split("\n").at(-1)!);
    assert.deepEqual([json.rootOk, json.commitmentOk, json.ballotOk], [true, true, false]);
    assert.deepEqual(
      json.ballotFailures.map((f: { index: number; code: string; marketId: string; account: string }) => [f.index, f.code, f.marketId, f.account]),
      [[0, "BALLOT_MISMATCH", "41", E]],
    );

    const verified = await run("npx", ["--no-install", "decode", "verify", "--rpc", rpc, "--ledger", ledger]);
    assert.equal(verified.code, 1, `${verified.stdout}\n${verified.stderr}`);
    assert.match(verified.stdout, /^MISMATCH at batch nonce 5 .*; ballot BALLOT_MISMATCH at op 0: market 41 session 1 voter 0x0+e1: outcome 0 /m);
  });
});
