/**
 * Chain, collateral, contracts and token-release documents (`/discover/chains`, `/discover/collateral`,
 * `/discover/contracts`, `/discover/token-release`, `/markets/config`), built from the deployment artifact.
 */
import type { Deployment } from "./deployment";
import type { TokenSupply } from "./token-supply";
import { participationReleaseId } from "../../../relayer/participation-release";

export interface ChainFacts {
  chainId: number;
  /** URL agents may use to read the chain (the local node in development). */
  publicRpcUrl: string;
  /** Play money's ledger lane: PM collateral lives in the committed ledger, not in a router. */
  pmSymbol?: string;
}

const CHAIN_NAMES: Record<number, string> = { 8453: "Base", 84532: "Base Sepolia", 31337: "Hardhat" };

export function buildChains(facts: ChainFacts) {
  return {
    chains: [
      {
        chainId: facts.chainId,
        name: CHAIN_NAMES[facts.chainId] ?? `Chain ${facts.chainId}`,
        type: "evm",
        blockExplorerUrl: facts.chainId === 8453 ? "https://basescan.org" : `${facts.publicRpcUrl.replace(/\/$/, "")}/#explorer-unavailable`,
        enabled: true,
        rpc: {
          publicUrl: facts.publicRpcUrl,
          readAfterWriteWindowMs: 2000,
          recommendedReadStrategy: "pin-to-receipt-block",
          recommendedPriorityFeeWei: "1000000",
        },
      },
    ],
  };
}

export function buildCollateral(d: Deployment) {
  const pm = d.contracts.PlayMoney;
  return {
    tokens: [
      ...(pm ? [{ token: pm.address, symbol: "PM", decimals: 6, chainId: d.chainId, enabled: true, settlement: "committed" }] : []),
      ...d.collaterals
        .filter((c) => c.symbol !== "PM")
        .map((c) => ({ token: c.token, symbol: c.symbol, decimals: c.decimals, chainId: d.chainId, enabled: true, settlement: "onchain" })),
    ],
  };
}

/** Approval recipes an agent needs before trading through a collateral's router. */
export function approvalRecipes(d: Deployment, collateral: Deployment["collaterals"][number]) {
  const outcomeToken = d.contracts.OutcomeToken?.address;
  return [
    {
      kind: "erc20_approve",
      reason: "buy_collateral",
      chainId: d.chainId,
      token: collateral.token,
      spender: collateral.router,
      amount: ((1n << 256n) - 1n).toString(),
    },
    ...(outcomeToken
      ? [{ kind: "erc1155_set_approval_for_all", reason: "sell_outcome_token", chainId: d.chainId, token: outcomeToken, spender: collateral.router }]
      : []),
  ];
}

export function buildContracts(d: Deployment, filter: { collateral?: string } = {}) {
  const wanted = filter.collateral?.toLowerCase();
  const collaterals = d.collaterals.filter((c) => !wanted || c.symbol.toLowerCase() === wanted || c.token.toLowerCase() === wanted);
  return {
    chains: [
      {
        chainId: d.chainId,
        name: CHAIN_NAMES[d.chainId] ?? `Chain ${d.chainId}`,
        stable: true,
        collaterals: collaterals.map((c) => ({
          symbol: c.symbol,
          token: c.token,
          router: c.router,
          decimals: c.decimals,
          role: c.symbol === "PM" ? "play-money" : "collateral",
          capabilities: { trading: true, creation: true },
        })),
        outcomeToken: d.contracts.OutcomeToken?.address ?? null,
        // The orderbook factory holds the order-book fee defaults; its markets live in the committed ledger.
        factories: {
          binary: d.contracts.BinaryFactory?.address ?? null,
          ternary: d.contracts.TernaryFactory?.address ?? null,
          orderbook: d.contracts.OrderbookFactory?.address ?? null,
        },
        committedLedger: d.contracts.CommittedLedger?.address ?? null,
        routerInterface: d.routerInterface,
        approvals: collaterals.flatMap((c) => approvalRecipes(d, c)),
      },
    ],
  };
}

/** A deployed contract as the token release lists it: where, from which block, by which transaction, with which code. */
function deploymentRecord(chainId: number, c: Deployment["contracts"][string]) {
  return {
    chainId,
    address: c.address,
    fromBlock: c.blockNumber,
    deploymentTxHash: c.txHash ?? null,
    deploymentBlockHash: c.blockHash ?? null,
    runtimeCodeHash: c.runtimeCodeHash ?? null,
  };
}

/** PM's token profile on a chain: the id and stage the token release and the participation release share. */
export function pmProfile(chainId: number) {
  return { profileId: `pm-${chainId}`, stage: chainId === 8453 ? ("production" as const) : ("test" as const), name: "Play Money", symbol: "PM", decimals: 6 };
}

/**
 * PM's release record: play money on the committed ledger, no cash value. `supply` is the token's on-chain
 * totalSupply (api/domain/protocol/token-supply.ts); without a read it is "0" with `totalSupplyReadAt: null`.
 */
export function buildTokenRelease(d: Deployment, supply: TokenSupply = { totalSupply: null, readAt: null }) {
  const pm = d.contracts.PlayMoney;
  const distributor = d.contracts.ParticipationDistributor;
  const { profileId, stage, name, symbol, decimals } = pmProfile(d.chainId);
  return {
    profileId,
    stage,
    deployed: Boolean(pm),
    token: {
      name,
      symbol,
      decimals,
      totalSupplyWei: (supply.totalSupply ?? 0n).toString(),
      totalSupplyReadAt: supply.readAt === null ? null : new Date(supply.readAt).toISOString(),
      logoPath: "/assets/pm.svg",
      disclaimer: "PM is a play-money participation token. It has no cash value and cannot be redeemed or withdrawn.",
    },
    origin: pm ? deploymentRecord(d.chainId, pm) : null,
    // PM exists on one chain only (no bridged representation). The one distributor is the participation release's
    // pool (docs/participation-release.md), once deployed.
    representations: [],
    distributors: distributor
      ? [{ kind: "participation_release", ...deploymentRecord(d.chainId, distributor), releaseId: participationReleaseId(d.chainId) }]
      : [],
  };
}
