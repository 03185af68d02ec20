/**
 * The ledger demo (`npm run ledger:demo`, scripts/ledger-demo.ts, and the tests of the proof route and of `decode`):
 * commits N batches of random but valid journal operations to a CommittedLedger (deploying one when none is given),
 * so `npx decode <txHash> --rpc <url>` (which replays the ledger the transaction calls) and `--ledger` can find them.
 *
 * DEV ONLY: signs with Hardhat's well-known development keys (account #0 = operator/deployer,
 * account #1 = treasury). Never point it at a chain where those keys hold anything of value.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, createWalletClient, http, keccak256, type Abi, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type LedgerState, applyOps, bondEscrowOf, encodePayload, journalCommitmentOf, ZERO_HASH, type JournalOp } from "../../decoder";
import { committedLedgerAbi } from "../../decoder/replay/abi";
import { replayLedger } from "../../decoder/replay/replay";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY } from "../../relayer/dev-accounts";
import { rpcChain } from "../../relayer/rpc-chain";
import { seededRandom } from "../../relayer/seeded-random";

const TRADERS: Address[] = [
  "0x1000000000000000000000000000000000000001",
  "0x2000000000000000000000000000000000000002",
  "0x3000000000000000000000000000000000000003",
  "0x4000000000000000000000000000000000000004",
];

/** Options of {@link runLedgerDemo}. */
export interface LedgerDemoOptions {
  rpc: string;
  batches: number;
  ledger?: Address;
  seed?: number;
  /** Make the second batch a legacy `commitBatch` (a grant and a MINT match) with emitEvents=true. */
  legacy?: boolean;
  /** Project root holding artifacts/ (for deploying). */
  root?: string;
}

/** One committed batch. */
export interface DemoBatch {
  txHash: Hex;
  nonce: string;
  root: Hex;
  /** The ledger the batch was committed to. */
  ledger: Address;
}

function findArtifact(root: string, name: string): { abi: Abi; bytecode: Hex } {
  const walk = (dir: string): string | null => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) {
        const hit = walk(full);
        if (hit) return hit;
      } else if (entry === `${name}.json`) return full;
    }
    return null;
  };
  const path = walk(join(root, "artifacts", "contracts"));
  if (!path) throw new Error(`no ${name} artifact: run \`npx hardhat compile\``);
  const artifact = JSON.parse(readFileSync(path, "utf8"));
  return { abi: artifact.abi, bytecode: artifact.bytecode };
}

/** Random valid operations for one batch; `state` is the ledger after the previous batches (not modified). */
function randomOps(state: LedgerState, rand: () => number, batch: number): JournalOp[] {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  const units = (max: number) => BigInt(1 + Math.floor(rand() * max)) * 10_000n;
  const marketId = BigInt(1 + (batch % 3));
  const maker = pick(TRADERS);
  const taker = pick(TRADERS.filter((t) => t !== maker));
  const ops: JournalOp[] = [
    { type: "CREDIT", account: pick(TRADERS), assetId: 0n, amount: units(100) * 100n, reason: 0 },
    { type: "CREDIT", account: maker, assetId: 0n, amount: 10_000_000n, reason: 1 },
    { type: "CREDIT", account: taker, assetId: 0n, amount: 10_000_000n, reason: 0 },
  ];
  const shares = units(20);
  const priceBps = 100 * (1 + Math.floor(rand() * 98));
  ops.push({ type: "MATCH", maker, taker, marketId, side: 0, kind: 2, shares, priceBps, fee: BigInt(Math.floor(rand() * 50)) });
  // The maker now holds `shares` of side 0: sell part of them to the taker.
  ops.push({ type: "MATCH", maker, taker, marketId, side: 0, kind: 0, shares: shares / 2n, priceBps: 5000, fee: 3n });
  ops.push({ type: "MARKET_SEED", marketId: 100n + marketId, funder: maker, amount: 1_000_000n });
  ops.push({ type: "LMSR_TRADE", account: taker, marketId: 100n + marketId, side: 1, direction: "BUY", shares: units(5), collateral: 30_000n, fee: 300n });
  ops.push({ type: "BOND_LOCK", marketId, account: maker, amount: 50_000n });
  // Return a bond locked in an earlier batch when the escrow holds one.
  if (state.balanceOf(bondEscrowOf(marketId), 0n) >= 50_000n && rand() < 0.5) {
    ops.push({ type: "BOND_RETURN", marketId, account: maker, amount: 50_000n });
  }
  return ops;
}

/** Deploys (when needed) and commits `batches` journal batches. Returns one record per batch. */
export async function runLedgerDemo(
  opts: LedgerDemoOptions,
  onBatch: (b: DemoBatch) => void = () => undefined,
): Promise<{ ledger: Address; batches: DemoBatch[] }> {
  const root = opts.root ?? join(__dirname, "..", "..");
  const probe = createPublicClient({ transport: http(opts.rpc) });
  const chainId = await probe.getChainId();
  const chain = rpcChain(chainId, opts.rpc);
  const client = createPublicClient({ chain, transport: http(opts.rpc) }) as PublicClient;
  const operator = privateKeyToAccount(DEV_DEPLOYER_KEY); // account #0 deploys and operates
  const treasuryAccount = privateKeyToAccount(DEV_OPERATOR_KEY).address; // account #1 is the treasury
  const wallet = createWalletClient({ chain, account: operator, transport: http(opts.rpc) });
  const abi = committedLedgerAbi();

  let ledger = opts.ledger;
  let fromBlock = 0n;
  if (!ledger) {
    const { bytecode } = findArtifact(root, "CommittedLedger");
    const ctor = abi.find((item) => item.type === "constructor") as { inputs: { name: string; type: string }[] } | undefined;
    const args = (ctor?.inputs ?? []).map((input) => {
      if (input.type !== "address") throw new Error(`cannot fill constructor argument ${input.name} (${input.type})`);
      return /treasury/i.test(input.name) ? treasuryAccount : operator.address;
    });
    const hash = await wallet.deployContract({ abi, bytecode, args });
    const receipt = await client.waitForTransactionReceipt({ hash });
    ledger = receipt.contractAddress!;
    fromBlock = receipt.blockNumber;
  }

  // Start from the ledger's current state (a fresh ledger replays to genesis instantly).
  const report = await replayLedger({ client, ledger, fromBlock });
  if (report.mismatch) throw new Error(`the ledger at ${ledger} does not replay cleanly at nonce ${report.mismatch.nonce}`);
  const state = report.state;
  let nonce = report.batches.at(-1)?.nonce ?? 0n;
  let prevRoot = report.batches.length ? await state.root() : ZERO_HASH;
  let commitment = report.batches.at(-1)?.computedCommitment ?? ZERO_HASH;
  const treasury = (await client.readContract({ address: ledger, abi, functionName: "treasury" })) as Address;
  const rand = seededRandom(opts.seed ?? 1);
  const out: DemoBatch[] = [];
  for (let b = 0; b < opts.batches; b++) {
    if (opts.legacy && b === 1) {
      const credits = [
        { account: TRADERS[0], id: 0n, delta: 1_000_000n, reason: 0 },
        { account: TRADERS[1], id: 0n, delta: 1_000_000n, reason: 0 },
      ];
      const matches = [{ maker: TRADERS[0], taker: TRADERS[1], marketId: 5n, side: 1, kind: 2, shares: 20_000n, priceBps: 2500, fee: 11n }];
      // The contract applies matches first, then credits: mirror that order locally.
      applyOps(
        state,
        [
          ...credits.map((c): JournalOp => ({ type: "CREDIT", account: c.account, assetId: c.id, amount: c.delta, reason: 0 })),
          { type: "MATCH", ...matches[0], side: 1, kind: 2 },
        ],
        { treasury },
      );
      const newRoot = await state.root();
      nonce += 1n;
      const hash = await wallet.writeContract({ address: ledger, abi, functionName: "commitBatch", args: [nonce, prevRoot, newRoot, matches, credits, true] });
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`legacy batch ${nonce} reverted (tx ${hash})`);
      prevRoot = newRoot;
      const record: DemoBatch = { txHash: hash, nonce: nonce.toString(), root: newRoot, ledger };
      out.push(record);
      onBatch(record);
      continue;
    }
    const ops = randomOps(state, rand, b);
    const payload = encodePayload(ops, { treasury });
    applyOps(state, ops, { treasury });
    const newRoot = await state.root();
    nonce += 1n;
    const payloadHash = keccak256(payload);
    const hash = await wallet.writeContract({
      address: ledger,
      abi,
      functionName: "commitJournalBatch",
      args: [nonce, prevRoot, newRoot, commitment, payloadHash, `0x${Buffer.from(payload).toString("hex")}`],
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`batch ${nonce} reverted (tx ${hash})`);
    commitment = journalCommitmentOf(commitment, nonce, newRoot, payloadHash);
    prevRoot = newRoot;
    const record: DemoBatch = { txHash: hash, nonce: nonce.toString(), root: newRoot, ledger };
    out.push(record);
    onBatch(record);
  }
  return { ledger, batches: out };
}
