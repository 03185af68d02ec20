/**
 * The fee defaults of new markets, read live from the factories on chain (owner-settable, capped by MAX_FEE_BPS):
 * the LMSR factories (`feeDefaults()`: buy 0, sell exit, winnings exit) and the order-book factory (`feeDefaults()`:
 * policy, place 0, router taker, operator batch, winnings exit). `GET /discover/fees` publishes them and
 * `POST /negotiate/propose` stamps them into a market's terms. Before any factory is deployed on the configured
 * chain the answer is the schedule the deployment initialises them with (relayer/pricing/fees.ts), marked as such.
 */
import { createPublicClient, http, type Address } from "viem";
import type { Config } from "../../config";
import { lmsrFactoryAbi, orderbookFactoryAbi } from "../../../generated/abis";
import { FEE_DEFAULTS, FEE_POLICY_VERSIONS, type FeePolicyVersion } from "../../../relayer/pricing/fees";
import { rpcChain } from "../../../relayer/rpc-chain";
import { ApiError } from "../../platform/errors/api-error";
import { currentDeployment } from "../markets/venue-documents";

export interface LmsrFees {
  buyFeeBps: 0;
  sellExitFeeBps: number;
  winningsExitFeeBps: number;
}

export interface FactoryFees {
  chainId: number;
  lmsr: LmsrFees;
  /** The ternary factory's defaults (a ternary on-chain market stamps these). */
  lmsrTernary: LmsrFees;
  orderbook: { feePolicyVersion: FeePolicyVersion; placeFeeBps: 0; routerTakerFeeBps: number; operatorBatchFeeBps: number; winningsExitFeeBps: number };
  /** Where the values were read: the factories' addresses, or null before they are deployed. */
  source: { lmsrFactory: string | null; orderbookFactory: string | null; blockNumber: string | null };
}

/** How long one chain read serves (ms of wall time): fee changes are rare owner transactions. */
const TTL_MS = 1_000;

export class FactoryFeeReader {
  private cached: { at: number; value: Promise<FactoryFees> } | null = null;

  constructor(private readonly config: Pick<Config, "CHAIN_ID" | "rpcUrl" | "deploymentFile">) {}

  read(): Promise<FactoryFees> {
    const wall = performance.now();
    if (this.cached && wall - this.cached.at < TTL_MS) return this.cached.value;
    const value = this.load();
    this.cached = { at: wall, value };
    value.catch(() => {
      if (this.cached?.value === value) this.cached = null;
    });
    return value;
  }

  private async load(): Promise<FactoryFees> {
    const d = currentDeployment(this.config);
    const lmsrFactory = d.contracts.BinaryFactory?.address ?? null;
    const orderbookFactory = d.contracts.OrderbookFactory?.address ?? null;
    const ternaryFactory = d.contracts.TernaryFactory?.address ?? null;
    if (!lmsrFactory && !orderbookFactory) {
      return {
        chainId: this.config.CHAIN_ID,
        lmsr: { ...FEE_DEFAULTS.lmsr },
        lmsrTernary: { ...FEE_DEFAULTS.lmsr },
        orderbook: { ...FEE_DEFAULTS.orderbook },
        source: { lmsrFactory: null, orderbookFactory: null, blockNumber: null },
      };
    }
    const client = createPublicClient({ chain: rpcChain(this.config.CHAIN_ID, this.config.rpcUrl), transport: http(this.config.rpcUrl, { retryCount: 1 }) });
    try {
      const blockNumber = await client.getBlockNumber();
      const lmsr = lmsrFactory
        ? await client.readContract({ address: lmsrFactory as Address, abi: lmsrFactoryAbi, functionName: "feeDefaults", blockNumber })
        : null;
      const ternary = ternaryFactory
        ? await client.readContract({ address: ternaryFactory as Address, abi: lmsrFactoryAbi, functionName: "feeDefaults", blockNumber })
        : lmsr;
      const ob = orderbookFactory
        ? await client.readContract({ address: orderbookFactory as Address, abi: orderbookFactoryAbi, functionName: "feeDefaults", blockNumber })
        : null;
      return {
        chainId: this.config.CHAIN_ID,
        lmsr: lmsr ? { buyFeeBps: 0, sellExitFeeBps: lmsr[1], winningsExitFeeBps: lmsr[2] } : { ...FEE_DEFAULTS.lmsr },
        lmsrTernary: ternary ? { buyFeeBps: 0, sellExitFeeBps: ternary[1], winningsExitFeeBps: ternary[2] } : { ...FEE_DEFAULTS.lmsr },
        orderbook: ob
          ? {
              feePolicyVersion: FEE_POLICY_VERSIONS[ob[0]] ?? "notional-v1",
              placeFeeBps: 0,
              routerTakerFeeBps: ob[2],
              operatorBatchFeeBps: ob[3],
              winningsExitFeeBps: ob[4],
            }
          : { ...FEE_DEFAULTS.orderbook },
        source: {
          lmsrFactory: lmsrFactory?.toLowerCase() ?? null,
          orderbookFactory: orderbookFactory?.toLowerCase() ?? null,
          blockNumber: blockNumber.toString(),
        },
      };
    } catch (err) {
      throw new ApiError(
        "SERVICE_UNAVAILABLE",
        `the factories' fee defaults cannot be read from chain ${this.config.CHAIN_ID}: ${(err as Error).message.split("\n")[0]}`,
        {},
        {},
        { cause: err },
      );
    }
  }
}
