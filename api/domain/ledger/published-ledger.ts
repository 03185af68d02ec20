/**
 * The ledger as published on chain: the decoder's replay of the CommittedLedger's batches, kept between requests.
 * Proofs served from it verify against the contract's `ledgerRoot()`, which is what an outside checker holds —
 * the relayer's live state may be ahead of the last published batch.
 *
 * The replay is incremental: when the chain's batch nonce moved on, only the blocks after the last replay are
 * scanned and their batches applied to the kept state (the batcher publishes every few seconds; a replay from
 * genesis per new batch would grow without bound). A nonce that went back, a root that no longer matches (reorg,
 * redeployment) or a failed resume starts again from the deployment block.
 */
import { existsSync } from "node:fs";
import { createPublicClient, http, type Address, type PublicClient } from "viem";
import { committedLedgerAbi } from "../../../generated/abis";
import { accountProof, type AccountProof, type LedgerState } from "../../../decoder";
import { replayLedger, type ReplayReport } from "../../../decoder/replay/replay";
import type { BallotBook } from "../../../decoder/replay/ballots";
import type { Hex } from "viem";
import type { Config } from "../../config";
import { readDeployment } from "../protocol/deployment";

export interface PublishedProof extends AccountProof {
  ledger: Address;
  chainId: number;
  batchNonce: bigint;
}

interface Replayed {
  nonce: bigint;
  root: Hex;
  commitment: Hex;
  state: LedgerState;
  /** Ballots locked and not yet revealed: a resume checks later reveals against them. */
  ballots: BallotBook;
  /** Last block the replay scanned. */
  toBlock: bigint;
}

export class PublishedLedger {
  private readonly client: PublicClient;
  private cached: Replayed | null = null;
  private inFlight: Promise<Replayed> | null = null;
  /** How the kept state was brought up to date, for operators and tests. */
  readonly stats = { fullReplays: 0, incrementalReplays: 0 };

  /** `fromBlock`: the ledger's deployment block (where a full replay starts). */
  constructor(
    readonly rpcUrl: string,
    readonly ledger: Address,
    readonly chainId: number,
    readonly fromBlock = 0n,
  ) {
    this.client = createPublicClient({ transport: http(rpcUrl) }) as PublicClient;
  }

  /** The replayed state at the chain's current batch nonce and root. */
  private async current(): Promise<Replayed> {
    const read = (functionName: "batchNonce" | "ledgerRoot") => this.client.readContract({ address: this.ledger, abi: committedLedgerAbi, functionName });
    const [nonce, root] = (await Promise.all([read("batchNonce"), read("ledgerRoot")])) as [bigint, Hex];
    const kept = this.cached;
    if (kept && kept.nonce === nonce && kept.root === root) return kept;
    // One replay at a time; concurrent readers share it.
    this.inFlight ??= this.catchUp(kept !== null && nonce > kept.nonce ? kept : null).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async catchUp(from: Replayed | null): Promise<Replayed> {
    if (from) {
      this.cached = null; // the resume mutates its state: never serve it half-applied
      try {
        const report = await replayLedger({
          client: this.client,
          ledger: this.ledger,
          fromBlock: from.toBlock + 1n,
          resume: { state: from.state, ballots: from.ballots, commitment: from.commitment, nonce: from.nonce },
        });
        if (!report.mismatch) {
          this.stats.incrementalReplays++;
          return (this.cached = replayedOf(report, from));
        }
      } catch {
        // fall through to a full replay
      }
    }
    const report = await replayLedger({ client: this.client, ledger: this.ledger, fromBlock: this.fromBlock });
    if (report.mismatch)
      throw new Error(
        `the published ledger does not replay at nonce ${report.mismatch.nonce}: ${report.mismatch.error ?? report.mismatch.ballotFailures[0]?.message ?? "root or commitment differs"}`,
      );
    this.stats.fullReplays++;
    return (this.cached = replayedOf(report, null));
  }

  async proofOf(account: Address): Promise<PublishedProof> {
    const { nonce, state } = await this.current();
    return { ...(await accountProof(state, account)), ledger: this.ledger, chainId: this.chainId, batchNonce: nonce };
  }
}

function replayedOf(report: ReplayReport, from: Replayed | null): Replayed {
  const last = report.batches.at(-1);
  return {
    nonce: last?.nonce ?? from?.nonce ?? 0n,
    root: (last?.computedRoot ?? from?.root ?? `0x${"0".repeat(64)}`) as Hex,
    commitment: last?.computedCommitment ?? from?.commitment ?? (`0x${"0".repeat(64)}` as Hex),
    state: report.state,
    ballots: report.ballots,
    toBlock: report.toBlock,
  };
}

/**
 * The published ledger of the deployment (deployments/<chainId>.json), or null while no CommittedLedger is deployed.
 * The artifact is read on first use, so a service started before the deployment still finds it; the ledger, once
 * found, is kept (its replay is kept between requests).
 */
export function deployedLedger(config: Config): () => PublishedLedger | null {
  let ledger: PublishedLedger | null = null;
  return () => {
    if (ledger) return ledger;
    const file = config.deploymentFile;
    const deployed = existsSync(file) ? readDeployment(file).contracts.CommittedLedger : undefined;
    if (deployed) ledger = new PublishedLedger(config.rpcUrl, deployed.address as `0x${string}`, config.CHAIN_ID, BigInt(deployed.blockNumber ?? 0));
    return ledger;
  };
}
