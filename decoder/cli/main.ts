/**
 * `decode <txHash> --rpc <url> [--ledger <address>] [--json] [--chunk <blocks>]`
 *   decodes that transaction's batch, replays from genesis up to and including it, checks root and commitment.
 * `decode verify --rpc <url> [--ledger <address>] [--chunk <blocks>]`
 *   replays every batch.
 * Exit codes: 0 all checks pass; 1 a root or commitment mismatch; 2 bad input or an unreachable RPC.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { decodeFunctionData, type Hash } from "viem";
import { DecoderBaseError } from "../errors";
import { committedLedgerAbi } from "../replay/abi";
import { ReplayError } from "../replay/errors";
import { replayLedger } from "../replay/replay";
import { connect, type Target } from "./connect";
import { batchJson, describeMismatch, describeOp } from "./format";
import { progressBar } from "./progress";

const USAGE = "usage: decode <txHash> --rpc <url> [--ledger <address>] [--json] | decode verify --rpc <url> [--ledger <address>]";
const BATCH_FUNCTIONS = new Set(["commitJournalBatch", "commitBatch"]);

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: string[], out: (line: string) => void = console.log, root = join(__dirname, "..", "..")): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { rpc: { type: "string" }, ledger: { type: "string" }, json: { type: "boolean" }, chunk: { type: "string" } },
  });
  if (positionals.length !== 1 || !values.rpc) throw new ReplayError("BAD_INPUT", USAGE);
  const chunkSize = values.chunk ? BigInt(values.chunk) : 2000n;
  const target = await connect(values.rpc, values.ledger, root);
  if (positionals[0] === "verify") return verify(target, chunkSize, out);
  return decodeTx(target, positionals[0], chunkSize, values.json === true, out);
}

async function verify(target: Target, chunkSize: bigint, out: (line: string) => void): Promise<number> {
  const bar = progressBar("verify");
  const report = await replayLedger({ client: target.client, ledger: target.ledger, fromBlock: target.fromBlock, chunkSize, onProgress: bar.onProgress });
  bar.stop();
  if (report.mismatch) {
    out(`MISMATCH at ${describeMismatch(report.mismatch)}`);
    return 1;
  }
  const last = report.batches.at(-1);
  out(`${report.batches.length} batch(es) verified${last ? `; nonce ${last.nonce} root ${last.computedRoot}` : ""}`);
  out("root ok");
  out("commitment ok");
  return 0;
}

async function decodeTx(target: Target, hash: string, chunkSize: bigint, json: boolean, out: (line: string) => void): Promise<number> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new ReplayError("BAD_INPUT", `not a transaction hash: ${hash}`);
  const tx = await target.client.getTransaction({ hash: hash as Hash }).catch((cause: unknown) => {
    throw new ReplayError("TX_NOT_FOUND", `transaction ${hash} not found on chain ${target.chainId}`, cause);
  });
  let functionName: string | undefined;
  try {
    functionName = decodeFunctionData({ abi: committedLedgerAbi(), data: tx.input }).functionName;
  } catch {
    functionName = undefined;
  }
  if (tx.to?.toLowerCase() !== target.ledger.toLowerCase() || !functionName || !BATCH_FUNCTIONS.has(functionName)) {
    throw new ReplayError("NOT_A_BATCH", `transaction ${hash} is not a batch commit to the ledger ${target.ledger}`);
  }
  const bar = progressBar("replay");
  const report = await replayLedger({
    client: target.client,
    ledger: target.ledger,
    fromBlock: target.fromBlock,
    toBlock: tx.blockNumber!,
    chunkSize,
    untilTx: hash as Hash,
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
    if (batch.error) out(`error: ${batch.error}`);
    out(batch.rootOk ? "root ok" : `root MISMATCH expected ${batch.expectedRoot} computed ${batch.computedRoot}`);
    out(batch.commitmentOk ? "commitment ok" : `commitment MISMATCH expected ${batch.expectedCommitment} computed ${batch.computedCommitment}`);
  }
  return batch.rootOk && batch.commitmentOk ? 0 : 1;
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
