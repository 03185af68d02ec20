/**
 * The `decode` CLI (see USAGE). Exit codes: 0 all checks pass; 1 a root or commitment mismatch or a failed ballot
 * check; 2 bad input, an unreachable RPC, or a transaction that is not a batch commit.
 */
import { parseArgs } from "node:util";
import type { Hash } from "viem";
import { DEPLOYMENTS_DIR } from "../deployment";
import { DecoderBaseError } from "../errors";
import { committedLedgerAbi } from "../replay/abi";
import { ReplayError } from "../replay/errors";
import { lifecycleSummary } from "../journal/lifecycle-summary";
import { batchOk, replayLedger } from "../replay/replay";
import { openChain, readDeployment, txTarget, verifyTarget, type LedgerFlags, type Target } from "./connect";
import { batchJson, describeBallotFailure, describeLifecycle, describeMismatch, describeOp } from "./format";
import { progressBar } from "./progress";

export const USAGE = `usage:
  decode <txHash> --rpc <url> [--ledger <address>] [--json] [--from-block <n>] [--chunk <blocks>] [--deployments <dir>]
      Decodes that transaction's batch, replays the ledger up to and including it, checks root, commitment and
      ballot reveals, and sums up the lifecycle of the batch's markets (states entered, payments per kind).
      Without --ledger, the ledger is the contract the transaction calls.
  decode verify --rpc <url> [--ledger <address>] [--from-block <n>] [--chunk <blocks>] [--deployments <dir>]
      Replays every batch, with the same checks. Without --ledger, the ledger is the CommittedLedger of <dir>/<chainId>.json.
options:
  --from-block <n>     first block to scan for ledger events (default: the deployment block in the
                       deployments file when it names this ledger, else 0)
  --chunk <blocks>     blocks per eth_getLogs call (default 2000)
  --deployments <dir>  directory of <chainId>.json deployment files (default: the repository's deployments/)`;

/** Where the CLI writes and which deployments directory it reads. */
export interface CliIo {
  /** Results (stdout). */
  readonly out: (line: string) => void;
  /** Notes such as the chosen ledger (stderr). */
  readonly note: (line: string) => void;
  readonly deploymentsDir: string;
}

const DEFAULT_IO: CliIo = { out: console.log, note: console.error, deploymentsDir: DEPLOYMENTS_DIR };

function blockFlag(name: string, value: string | undefined, min: bigint): bigint | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || BigInt(value) < min) throw new ReplayError("BAD_INPUT", `--${name} must be an integer >= ${min}, got ${value}`);
  return BigInt(value);
}

function parseCliArgs(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        rpc: { type: "string" },
        ledger: { type: "string" },
        json: { type: "boolean" },
        chunk: { type: "string" },
        "from-block": { type: "string" },
        deployments: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (cause) {
    throw new ReplayError("BAD_INPUT", `${cause instanceof Error ? cause.message : String(cause)}\n${USAGE}`, cause);
  }
}

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: string[], io: Partial<CliIo> = {}): Promise<number> {
  const { out, note, deploymentsDir } = { ...DEFAULT_IO, ...io };
  const { values, positionals } = parseCliArgs(argv);
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (positionals.length !== 1 || !values.rpc) throw new ReplayError("BAD_INPUT", USAGE);
  const chunkSize = blockFlag("chunk", values.chunk, 1n) ?? 2000n;
  const flags: LedgerFlags = { ledger: values.ledger, fromBlock: blockFlag("from-block", values["from-block"], 0n) };
  if (positionals[0] !== "verify" && !/^0x[0-9a-fA-F]{64}$/.test(positionals[0]))
    throw new ReplayError("BAD_INPUT", `not a transaction hash: ${positionals[0]}`);
  const chain = await openChain(values.rpc);
  const deployment = readDeployment(values.deployments ?? deploymentsDir, chain.chainId);
  if (positionals[0] === "verify") return verify(verifyTarget(chain, flags, deployment), chunkSize, out);
  const hash = positionals[0] as Hash;
  const tx = await chain.client.getTransaction({ hash }).catch((cause: unknown) => {
    throw new ReplayError("TX_NOT_FOUND", `transaction ${hash} not found on chain ${chain.chainId}`, cause);
  });
  const target = txTarget(chain, tx, committedLedgerAbi(), flags, deployment, note);
  return decodeTx(target, hash, tx.blockNumber!, chunkSize, values.json === true, out);
}

async function verify(target: Target, chunkSize: bigint, out: (line: string) => void): Promise<number> {
  const bar = progressBar("verify");
  const report = await replayLedger({
    client: target.client,
    ledger: target.ledger,
    fromBlock: target.fromBlock,
    chunkSize,
    onScan: bar.onScan,
    onProgress: bar.onProgress,
  });
  bar.stop();
  if (report.mismatch) {
    out(`MISMATCH at ${describeMismatch(report.mismatch)}`);
    return 1;
  }
  const last = report.batches.at(-1);
  out(`${report.batches.length} batch(es) verified${last ? `; nonce ${last.nonce} root ${last.computedRoot}` : ""}`);
  out("root ok");
  out("commitment ok");
  const reveals = report.batches.reduce((n, b) => n + b.ops.filter((op) => op.type === "BALLOT_REVEAL").length, 0);
  out(`ballots ok (${reveals} reveal(s) checked, ${report.ballots.size} locked ballot(s) not yet revealed)`);
  return 0;
}

async function decodeTx(target: Target, hash: Hash, blockNumber: bigint, chunkSize: bigint, json: boolean, out: (line: string) => void): Promise<number> {
  const bar = progressBar("replay");
  const report = await replayLedger({
    client: target.client,
    ledger: target.ledger,
    fromBlock: target.fromBlock,
    toBlock: blockNumber,
    chunkSize,
    untilTx: hash,
    onScan: bar.onScan,
    onProgress: bar.onProgress,
  });
  bar.stop();
  const batch = report.target;
  if (!batch) {
    out(report.mismatch ? `MISMATCH before this batch, at ${describeMismatch(report.mismatch)}` : `no batch event found for ${hash} (reverted?)`);
    return 1;
  }
  if (json) {
    out(JSON.stringify(batchJson(batch, report.state.entries())));
  } else {
    out(`batch nonce ${batch.nonce} (${batch.kind}) tx ${batch.txHash} block ${batch.blockNumber}`);
    if (batch.treasury) out(`treasury ${batch.treasury}`);
    for (const op of batch.ops) out(`  ${describeOp(op)}`);
    if (batch.kind === "legacy") for (const m of batch.movements) out(`  MOVE ${m.from} -> ${m.to} asset=${m.assetId} amount=${m.amount}`);
    for (const line of describeLifecycle(lifecycleSummary(batch.ops))) out(line);
    if (batch.error) out(`error: ${batch.error}`);
    out(batch.rootOk ? "root ok" : `root MISMATCH expected ${batch.expectedRoot} computed ${batch.computedRoot}`);
    out(batch.commitmentOk ? "commitment ok" : `commitment MISMATCH expected ${batch.expectedCommitment} computed ${batch.computedCommitment}`);
    const reveals = batch.ops.filter((op) => op.type === "BALLOT_REVEAL").length;
    if (batch.ballotOk && reveals > 0) out(`ballots ok (${reveals} reveal(s) match their commitments)`);
    for (const f of batch.ballotFailures) out(describeBallotFailure(f));
  }
  return batchOk(batch) ? 0 : 1;
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      const message = e instanceof DecoderBaseError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
      console.error(`decode: ${message}`);
      process.exit(2);
    },
  );
}
