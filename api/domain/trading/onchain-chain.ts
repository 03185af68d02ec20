/**
 * The chain side of the onchain lane: the deployment (collateral routers, the outcome token), a public client for
 * live reads, and the operator wallet that relays signed intents. Built on first use, so a service started before the
 * contracts are deployed finds them once they are.
 */
import { createPublicClient, createWalletClient, http, type Address, type Hex } from "viem";
import type { Config } from "../../config";
import { ApiError } from "../../platform/errors/api-error";
import { approvalRecipes } from "../protocol/chains";
import { readDeployment, type Deployment } from "../protocol/deployment";
import type { OnchainMarket } from "../onchain/reads";
import { intentRouterAbi, lmsrMarketAbi, outcomeTokenAbi, testUSDCAbi } from "../../../generated/abis";
import { rpcChain } from "../../../relayer/rpc-chain";
import { sendingAccount, type SendingAccount } from "../../../relayer/sending-account";
import { intentArgs, type IntentFields } from "./onchain-intents";

export type Collateral = Deployment["collaterals"][number];

export interface OnchainChain {
  /** The collateral (and its IntentRouter) of a market; CONFLICT when the deployment has no router for it. */
  collateralOf(m: OnchainMarket): Collateral;
  /** The market's outstanding shares per outcome, read from the chain now (never a lagging projection). */
  outstanding(m: OnchainMarket): Promise<bigint[]>;
  /** 409 CONFLICT with the approval recipes when `trader` has not approved the router for this trade. */
  checkApprovals(m: OnchainMarket, trader: Address, trade: { side: "buy" | "sell"; limit: bigint }): Promise<void>;
  /** Sends executeTradeIntent with the operator key and waits for the receipt. */
  relay(router: Address, intent: IntentFields, signature: Hex): Promise<{ txHash: Hex; status: "success" | "reverted"; blockNumber: bigint }>;
}

interface Connection {
  deployment: Deployment;
  client: ReturnType<typeof createPublicClient>;
  wallet: ReturnType<typeof createWalletClient>;
  /** The operator key, whose sends (the batcher's and the resolver's too) go to the node one at a time. */
  operator: SendingAccount;
}

export function onchainChain(config: Pick<Config, "CHAIN_ID" | "rpcUrl" | "OPERATOR_PRIVATE_KEY" | "deploymentFile">): OnchainChain {
  let conn: Connection | null = null;
  const connection = (): Connection => {
    if (!conn) {
      const chain = rpcChain(config.CHAIN_ID, config.rpcUrl);
      const transport = http(config.rpcUrl);
      const operator = sendingAccount(config.OPERATOR_PRIVATE_KEY as Hex);
      conn = {
        deployment: readDeployment(config.deploymentFile),
        client: createPublicClient({ chain, transport }),
        wallet: createWalletClient({ chain, transport, account: operator.account }),
        operator,
      };
    }
    return conn;
  };

  const collateralOf = (m: OnchainMarket): Collateral => {
    const c = connection().deployment.collaterals.find((x) => x.token.toLowerCase() === m.collateral.toLowerCase());
    if (!c) throw new ApiError("CONFLICT", `market ${m.address} uses a collateral without a router`);
    return c;
  };

  return {
    collateralOf,

    async outstanding(m) {
      return [...(await connection().client.readContract({ address: m.address as Address, abi: lmsrMarketAbi, functionName: "outstanding" }))];
    },

    async checkApprovals(m, trader, trade) {
      const { client, deployment } = connection();
      const c = collateralOf(m);
      const router = c.router as Address;
      if (trade.side === "buy") {
        const allowance = await client.readContract({ address: c.token as Address, abi: testUSDCAbi, functionName: "allowance", args: [trader, router] });
        if (allowance < trade.limit) {
          throw new ApiError("CONFLICT", `${trader} has not approved ${c.symbol} to the router for at least ${trade.limit}`, {
            reason: "approval_required",
            approvals: approvalRecipes(deployment, c).filter((r) => r.kind === "erc20_approve"),
          });
        }
      } else {
        const outcomeToken = deployment.contracts.OutcomeToken!.address as Address;
        const ok = await client.readContract({ address: outcomeToken, abi: outcomeTokenAbi, functionName: "isApprovedForAll", args: [trader, router] });
        if (!ok) {
          throw new ApiError("CONFLICT", `${trader} has not approved the router to move outcome tokens`, {
            reason: "approval_required",
            approvals: approvalRecipes(deployment, c).filter((r) => r.kind === "erc1155_set_approval_for_all"),
          });
        }
      }
    },

    async relay(router, intent, signature) {
      const rt = connection();
      const txHash = await rt.operator.inTurn(async () => {
        const { request } = await rt.client.simulateContract({
          account: rt.wallet.account!,
          address: router,
          abi: intentRouterAbi,
          functionName: "executeTradeIntent",
          args: [intentArgs(intent), signature],
        });
        return rt.wallet.writeContract(request);
      });
      const receipt = await rt.client.waitForTransactionReceipt({ hash: txHash });
      return { txHash, status: receipt.status, blockNumber: receipt.blockNumber };
    },
  };
}
