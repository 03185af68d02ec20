/**
 * The ledger as published on chain: the decoder's replay of the CommittedLedger's batches, cached per batch nonce.
 * Proofs served from it verify against the contract's `ledgerRoot()`, which is what an outside checker holds —
 * the relayer's live state may be ahead of the last published batch.
 */
import { createPublicClient, http, type Address, type PublicClient } from "viem";
import { committedLedgerAbi } from "../../generated/abis";
import { accountProof, type AccountProof, type LedgerState } from "../../decoder";
import { replayLedger } from "../../decoder/replay/replay";

export interface PublishedProof extends AccountProof {
  ledger: Address;
  chainId: number;
  batchNonce: bigint;
}

export class PublishedLedger {
  private readonly client: PublicClient;
  private cached: { nonce: bigint; state: LedgerState } | null = null;
  private inFlight: Promise<{ nonce: bigint; state: LedgerState }> | null = null;

  constructor(readonly rpcUrl: string, readonly ledger: Address, readonly chainId: number) {
    this.client = createPublicClient({ transport: http(rpcUrl) }) as PublicClient;
  }

  /** The replayed state at the chain's current batch nonce; replays again only when the nonce moved. */
  private async current(): Promise<{ nonce: bigint; state: LedgerState }> {
    const nonce = await this.client.readContract({ address: this.ledger, abi: committedLedgerAbi, functionName: "batchNonce" });
    if (this.cached && this.cached.nonce === nonce) return this.cached;
    // One replay at a time; concurrent readers share it.
    this.inFlight ??= replayLedger({ client: this.client, ledger: this.ledger })
      .then((report) => {
        if (report.mismatch) throw new Error(`the published ledger does not replay at nonce ${report.mismatch.nonce}`);
        const last = report.batches.at(-1)?.nonce ?? 0n;
        this.cached = { nonce: last, state: report.state };
        return this.cached;
      })
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  async proofOf(account: Address): Promise<PublishedProof> {
    const { nonce, state } = await this.current();
    return { ...(await accountProof(state, account)), ledger: this.ledger, chainId: this.chainId, batchNonce: nonce };
  }
}
