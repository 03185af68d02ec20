/**
 * Trade lanes (docs/trading-onchain.md, docs/venue.md). A market's lane follows from where it settles and never
 * changes: a market the catalog lists with `settlement: committed` trades through the exchange engine (PM, executed at
 * once: committed-lane.ts); an LmsrMarket the on-chain projection knows trades through its collateral's IntentRouter
 * (an EIP-712 intent the agent signs: onchain-lane.ts). `TradeLanes` picks the lane of a market; both answer the same
 * `TradeLane` interface (trade-lane.ts), and their answers are the discriminated unions of trade-answers.ts.
 */
import type { Hex } from "viem";
import type { ServiceContext } from "../../context";
import { ApiError } from "../../platform/errors/api-error";
import { getMarket } from "../markets/catalog-store";
import { committedLane, type CommittedLaneDeps } from "./committed-lane";
import { onchainLane } from "./onchain-lane";
import type { OnchainChain } from "./onchain-chain";
import type { OnchainProjection } from "../onchain/reads";
import type { SubmittedIntent, TradeIntentView } from "./trade-answers";
import type { TradeLane } from "./trade-lane";

export interface TradeLanes {
  /** The lane of the market at `address` (lower-case); MARKET_NOT_FOUND when no lane trades it. */
  laneOf(address: string): Promise<TradeLane>;
  /** The agent's prepared intent (onchain lane) with its execution; NOT_FOUND for an unknown or another agent's. */
  intent(digest: string, agentId: string): Promise<TradeIntentView>;
  /** Relays the agent's signed intent (onchain lane) and answers after the receipt. */
  submit(digest: string, signature: Hex, agentId: string): Promise<SubmittedIntent>;
}

export interface TradeLaneDeps {
  ctx: ServiceContext;
  /** The committed venue: its exchange, engine accounts and markets. */
  venue: CommittedLaneDeps;
  /** The on-chain projection (`Services.onchain`): the onchain lane's markets and intent executions. */
  projection: OnchainProjection;
  /** The onchain lane's chain access; default: the deployment and RPC of `ctx.config`, connected on first use. */
  chain?: OnchainChain;
}

export function createTradeLanes(deps: TradeLaneDeps): TradeLanes {
  const { ctx } = deps;
  const committed = committedLane(deps.venue, ctx.clock);
  const onchain = onchainLane(ctx, deps.projection, deps.chain);
  return {
    async laneOf(address) {
      // The catalog first: a local read, so PM trading never waits on the projection.
      const listed = await getMarket(ctx.db, ctx.config.CHAIN_ID, address, ctx.clock.now());
      if (listed?.settlement === "committed") {
        const vm = await committed.marketOrNull(address);
        if (vm) return committed.at(vm);
        // Listed while this service ran (`npm run seed`): the engine creates it at the next start.
        throw new ApiError("SERVICE_UNAVAILABLE", "committed-lane trading is not available on this instance", { lane: "committed" }, { "Retry-After": "30" });
      }
      // Without the indexer (INDEXER_ENABLED=false) there is no onchain lane to ask: an unlisted address is unknown,
      // not a projection that is down (503).
      const m = ctx.config.INDEXER_ENABLED ? await onchain.marketOrNull(address) : null;
      if (m) return onchain.at(m);
      throw new ApiError("MARKET_NOT_FOUND", `no tradable market at ${address}`);
    },
    intent: (digest, agentId) => onchain.intent(digest, agentId),
    submit: (digest, signature, agentId) => onchain.submit(digest, signature, agentId),
  };
}
