/**
 * The participation release's distributor as the service sees it (docs/participation-release.md): whether it is
 * deployed and paying, what it holds, what an identity was paid, the vouchers the operator key signs, and the
 * payments its `Distributed` events record. Reads go to the configured RPC with a short timeout: a dead chain makes
 * the release `degraded`, never a slow answer. Opened lazily, so a service started before the deployment finds it.
 */
import { createPublicClient, createWalletClient, encodeFunctionData, http, parseEventLogs, type Address, type Hex, type Log } from "viem";
import type { Config } from "../../config";
import { ApiError } from "../../platform/errors/api-error";
import { currentDeployment } from "../markets/venue-documents";
import { participationDistributorAbi, playMoneyAbi } from "../../../generated/abis";
import { distributorDomain, participationReleaseId, VOUCHER_TYPES, type Voucher } from "../../../relayer/participation-release";
import { rpcChain } from "../../../relayer/rpc-chain";
import { sendingAccount } from "../../../relayer/sending-account";
import { UNIT_WEI, type DeploymentState, type RefusalCode } from "./program";

export interface DistributorStatus {
  state: DeploymentState;
  reasonCode: RefusalCode | null;
  chainId: number;
  releaseId: Hex;
  address: Address | null;
  /** PM the distributor holds (base units); null when it could not be read. */
  inventoryWei: bigint | null;
}

/** One `Distributed` event: a voucher paid. */
export interface Payment {
  txHash: Hex;
  blockNumber: bigint;
  intentKey: Hex;
  identityKey: Hex;
  recipient: Address;
  amount: bigint;
  cumulativeAmount: bigint;
}

export type ReceiptView = { status: "success" | "reverted"; blockNumber: bigint; payments: Payment[] } | null;

export interface DistributorChain {
  status(): Promise<DistributorStatus>;
  /** What the identity was paid so far, cumulative, as the contract counts it. */
  paidTo(address: Address, identityKey: Hex): Promise<bigint>;
  /** The operator's signature of a voucher, and the `claim` call that presents it. */
  claimTransaction(address: Address, v: Voucher): Promise<{ to: Address; data: Hex }>;
  /** Sends the voucher's `claim` with the operator key (protocol_push) and returns the transaction's hash. */
  push(address: Address, v: Voucher): Promise<Hex>;
  /** The native balance (gas money) of a wallet. */
  gasBalance(wallet: Address): Promise<bigint>;
  /** The receipt of `txHash` with the distributor's payments in it; null when the chain has none (yet). */
  receipt(address: Address, txHash: Hex): Promise<ReceiptView>;
  /** The payment of an intent, found in the distributor's events; null when it was not paid. */
  paymentOf(address: Address, intentKey: Hex): Promise<Payment | null>;
  /** Blocks on top of `blockNumber`, itself included. */
  confirmations(blockNumber: bigint): Promise<number>;
  /** The latest block's timestamp (ms): the time the contract judges a voucher's expiry by. */
  chainTime(): Promise<number>;
}

/** A chain read that fails is the release's `degraded` route to the caller: 503, try again, nothing changed. */
async function onChain<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    throw new ApiError("PARTICIPATION_ROUTE_DEGRADED", "the chain did not answer the participation release's read; try again", {}, {}, { cause: err });
  }
}

export function distributorChain(config: Pick<Config, "CHAIN_ID" | "rpcUrl" | "OPERATOR_PRIVATE_KEY" | "deploymentFile">): DistributorChain {
  const chain = rpcChain(config.CHAIN_ID, config.rpcUrl);
  const client = createPublicClient({ chain, transport: http(config.rpcUrl, { timeout: 2_000, retryCount: 0 }) });
  // The operator key signs vouchers, and sends pushed claims in turn with the batcher's and the resolver's sends.
  const operator = sendingAccount(config.OPERATOR_PRIVATE_KEY as Hex);
  const signer = operator.account;
  const wallet = createWalletClient({ chain, transport: http(config.rpcUrl), account: signer });
  const releaseId = participationReleaseId(config.CHAIN_ID);
  const paymentsOf = (logs: Log[], address: Address): Payment[] =>
    parseEventLogs({ abi: participationDistributorAbi, eventName: "Distributed", logs })
      .filter((l) => l.address.toLowerCase() === address.toLowerCase())
      .map((l) => ({
        txHash: l.transactionHash,
        blockNumber: l.blockNumber,
        intentKey: l.args.intentId,
        identityKey: l.args.identity,
        recipient: l.args.recipient,
        amount: l.args.amount,
        cumulativeAmount: l.args.cumulativeAmount,
      }));

  const claimCall = async (address: Address, v: Voucher) => {
    const signature = await signer.signTypedData({
      domain: distributorDomain(config.CHAIN_ID, address),
      types: VOUCHER_TYPES,
      primaryType: "Voucher",
      message: v,
    });
    return { to: address, data: encodeFunctionData({ abi: participationDistributorAbi, functionName: "claim", args: [v, signature] }) };
  };

  return {
    async status() {
      const d = currentDeployment(config);
      const deployed = d.contracts.ParticipationDistributor;
      const base = { chainId: d.chainId, releaseId, address: (deployed?.address as Address | undefined) ?? null, inventoryWei: null };
      if (!deployed) return { ...base, state: "not_deployed", reasonCode: "PARTICIPATION_RELEASE_NOT_DEPLOYED" };
      const address = deployed.address as Address;
      try {
        const [onChainRelease, paused, token] = await Promise.all([
          client.readContract({ address, abi: participationDistributorAbi, functionName: "releaseId" }),
          client.readContract({ address, abi: participationDistributorAbi, functionName: "paused" }),
          client.readContract({ address, abi: participationDistributorAbi, functionName: "token" }),
        ]);
        // A distributor of another release, or paying another token, must not be presented as this one.
        if (onChainRelease.toLowerCase() !== releaseId || token.toLowerCase() !== d.contracts.PlayMoney?.address.toLowerCase())
          return { ...base, state: "quarantined", reasonCode: "PARTICIPATION_ROUTE_QUARANTINED" };
        const inventoryWei = await client.readContract({ address: token, abi: playMoneyAbi, functionName: "balanceOf", args: [address] });
        if (paused) return { ...base, inventoryWei, state: "payment_paused", reasonCode: "PARTICIPATION_DISTRIBUTION_PAUSED" };
        return { ...base, inventoryWei, state: "active", reasonCode: inventoryWei < UNIT_WEI ? "PARTICIPATION_INVENTORY_LOW" : null };
      } catch {
        return { ...base, state: "degraded", reasonCode: "PARTICIPATION_ROUTE_DEGRADED" };
      }
    },
    paidTo: (address, identityKey) => onChain(client.readContract({ address, abi: participationDistributorAbi, functionName: "paidTo", args: [identityKey] })),
    claimTransaction: (address, v) => claimCall(address, v),
    async push(address, v) {
      const { to, data } = await claimCall(address, v);
      return onChain(operator.inTurn(() => wallet.sendTransaction({ to, data })));
    },
    gasBalance: (who) => onChain(client.getBalance({ address: who })),
    async receipt(address, txHash) {
      const r = await onChain(
        client.getTransactionReceipt({ hash: txHash }).catch((err: unknown) => {
          if ((err as Error).name === "TransactionReceiptNotFoundError") return null;
          throw err;
        }),
      );
      return r && { status: r.status, blockNumber: r.blockNumber, payments: paymentsOf(r.logs, address) };
    },
    async paymentOf(address, intentKey) {
      const fromBlock = BigInt(currentDeployment(config).contracts.ParticipationDistributor?.blockNumber ?? 0);
      const logs = await client.getContractEvents({
        address,
        abi: participationDistributorAbi,
        eventName: "Distributed",
        args: { intentId: intentKey },
        fromBlock,
      });
      return paymentsOf(logs, address)[0] ?? null;
    },
    async confirmations(blockNumber) {
      return Number((await onChain(client.getBlockNumber({ cacheTime: 0 }))) - blockNumber + 1n);
    },
    async chainTime() {
      return Number((await onChain(client.getBlock())).timestamp) * 1000;
    },
  };
}
