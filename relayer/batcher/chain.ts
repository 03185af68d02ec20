/**
 * The batcher's view of the CommittedLedger: reads of its batch head, the search for an already committed batch,
 * and the commitJournalBatch transaction, over viem with the operator key. No retries here (viem's own are off):
 * the batcher decides when to try again.
 */
import { createPublicClient, createWalletClient, http, type Address, type Chain, type Hex, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { committedLedgerAbi } from "../../generated/abis";
import { rpcChain } from "../rpc-chain";
import { sendingAccount, type SendingAccount } from "../sending-account";

export interface ChainHead {
  nonce: bigint;
  root: Hex;
  commitment: Hex;
}

export interface LandedBatch {
  txHash: Hex;
  blockNumber: bigint;
  root: Hex;
  commitment: Hex;
}

export interface JournalBatchCall {
  nonce: bigint;
  prevRoot: Hex;
  root: Hex;
  prevCommitment: Hex;
  payloadHash: Hex;
  payload: Hex;
}

export class LedgerChain {
  readonly client: PublicClient;
  readonly account: PrivateKeyAccount;
  readonly #operator: SendingAccount;
  #chain: Chain | null = null;

  constructor(
    readonly rpcUrl: string,
    readonly ledger: Address,
    operatorKey: Hex,
    private readonly opts: { fromBlock?: bigint; requestTimeoutMs?: number; receiptTimeoutMs?: number } = {},
  ) {
    this.client = createPublicClient({ transport: this.#transport() }) as PublicClient;
    this.#operator = sendingAccount(operatorKey);
    this.account = this.#operator.account;
  }

  #transport() {
    return http(this.rpcUrl, { retryCount: 0, timeout: this.opts.requestTimeoutMs ?? 10_000 });
  }

  async head(): Promise<ChainHead> {
    const read = (functionName: "batchNonce" | "ledgerRoot" | "journalCommitment") =>
      this.client.readContract({ address: this.ledger, abi: committedLedgerAbi, functionName });
    const [nonce, root, commitment] = await Promise.all([read("batchNonce"), read("ledgerRoot"), read("journalCommitment")]);
    return { nonce: BigInt(nonce), root: root as Hex, commitment: commitment as Hex };
  }

  /** The JournalBatchCommitted of `nonce`, if the chain holds one. */
  async landed(nonce: bigint): Promise<LandedBatch | null> {
    const logs = await this.client.getContractEvents({
      address: this.ledger,
      abi: committedLedgerAbi,
      eventName: "JournalBatchCommitted",
      args: { nonce },
      fromBlock: this.opts.fromBlock ?? 0n,
      toBlock: "latest",
    });
    const log = logs.find((l) => l.args.nonce === nonce);
    if (!log) return null;
    return { txHash: log.transactionHash, blockNumber: log.blockNumber, root: log.args.newRoot as Hex, commitment: log.args.journalCommitment as Hex };
  }

  /**
   * Sends the transaction; resolves with its hash once the node accepted it. The send takes its turn among the
   * process's other sends from the operator key (the trade relay's, the resolver's), so their nonces never collide.
   */
  async send(call: JournalBatchCall): Promise<Hex> {
    this.#chain ??= rpcChain(await this.client.getChainId(), this.rpcUrl);
    const wallet = createWalletClient({ chain: this.#chain, account: this.account, transport: this.#transport() });
    return this.#operator.inTurn(() =>
      wallet.writeContract({
        address: this.ledger,
        abi: committedLedgerAbi,
        functionName: "commitJournalBatch",
        args: [call.nonce, call.prevRoot, call.root, call.prevCommitment, call.payloadHash, call.payload],
      }),
    );
  }

  async receipt(hash: Hex): Promise<{ status: "success" | "reverted"; blockNumber: bigint }> {
    const r = await this.client.waitForTransactionReceipt({ hash, timeout: this.opts.receiptTimeoutMs ?? 120_000, pollingInterval: 250 });
    return { status: r.status, blockNumber: r.blockNumber };
  }
}
