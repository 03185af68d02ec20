/**
 * Opens the committed venue of one service process: the journal-backed exchange (rebuilt from the journal), the
 * batcher that publishes the journal to the CommittedLedger when one is deployed, the trade recorder that copies fills
 * into the catalog, and engine markets for catalog markets listed while it was stopped (the demo markets are created
 * after it, through the negotiate flow: api/domain/creation/demo-creator.ts). The views the API reads from it (fill allowances, order books, LMSR ladders,
 * holders, the committed trade lane, realtime streams, webhooks) are wired by `createServices` (api/open-services.ts).
 * The exchange is a single writer: run one service process per database.
 */
import { existsSync } from "node:fs";
import type { Address } from "viem";
import { Exchange, type JournalReplay } from "../../../relayer/exchange/exchange";
import { openBatcher } from "../../../relayer/batcher/config";
import type { Batcher } from "../../../relayer/batcher";
import { FILL_ALLOWANCE_PERIOD_MS, type EngineConfig } from "../../../relayer/engine";
import { readDeployment } from "../protocol/deployment";
import type { ServiceContext } from "../../context";
import { ApiError } from "../../platform/errors/api-error";
import { getMarket } from "../markets/catalog-store";
import { ledgerAccountFor } from "../auth/ledger-account";
import { AccountOpener } from "./accounts";
import { createListedMarkets } from "./seed-markets";
import { TradeRecorder } from "./trade-recorder";
import { batcherConfigOf } from "./batcher-config";
import type { Venue, VenueMarket } from "./types";

export interface OpenVenueOptions {
  /** Publish batches to the chain's CommittedLedger when deployments/<chainId>.json names one (default true). */
  publish?: boolean;
  /** An engine already replayed through part of the journal (a follower's, at a take-over): only the rest is replayed. */
  replay?: JournalReplay;
}

/** The engine's configuration; it must not change between runs on one journal (the rebuild replays with it). */
export function engineConfigOf(config: ServiceContext["config"]): EngineConfig {
  return {
    treasury: config.TREASURY_ADDRESS.toLowerCase() as Address,
    allowance: { enabled: config.FILL_ALLOWANCE_ENABLED, freePerPeriod: config.FILL_ALLOWANCE_FREE_PER_PERIOD, periodMs: FILL_ALLOWANCE_PERIOD_MS },
  };
}

export async function openVenue(ctx: ServiceContext, opts: OpenVenueOptions = {}): Promise<Venue> {
  const { config } = ctx;
  let batcher: Batcher | null = null;
  const exchange = await Exchange.open({
    db: ctx.db,
    clock: ctx.clock,
    engineConfig: engineConfigOf(config),
    log: ctx.log.child({ part: "exchange" }),
    onCommitted: (ops) => batcher?.noteAppended(ops),
    replay: opts.replay,
    snapshotEvery: config.SNAPSHOT_EVERY,
    snapshotReplica: config.SNAPSHOT_REPLICA,
  });
  const closers: (() => Promise<void> | void)[] = [() => exchange.close()];
  try {
    if (opts.publish !== false) batcher = await batcherFor(ctx);
    if (batcher) {
      batcher.start();
      const b = batcher;
      closers.unshift(() => b.stop());
    }
    const recorder = new TradeRecorder(ctx.db, exchange, ctx.log);
    closers.unshift(() => recorder.close());
    await createListedMarkets(ctx, exchange);

    const opener = new AccountOpener(exchange, config.PM_STARTING_GRANT);
    const openAccount = (account: Address, signupAt: number) => opener.ensure(account.toLowerCase() as Address, signupAt);
    const accountOf = async (principal: Parameters<Venue["accountOf"]>[0]) =>
      openAccount((await ledgerAccountFor(ctx, principal)) as Address, principal.createdAt);
    const marketAt = async (address: string): Promise<VenueMarket> => {
      const market = await getMarket(ctx.db, config.CHAIN_ID, address.toLowerCase(), ctx.clock.now());
      if (market?.settlement !== "committed" || market.marketId === null || !exchange.engine.market(market.marketId)) {
        throw new ApiError("MARKET_NOT_FOUND", `no committed-lane market at ${address}`);
      }
      return { market, marketId: market.marketId };
    };

    return {
      exchange,
      get batcher() {
        return batcher;
      },
      accountOf,
      openAccount,
      marketAt,
      async close() {
        for (const close of closers.splice(0)) await close();
      },
    };
  } catch (err) {
    for (const close of closers.splice(0)) await close();
    throw err;
  }
}

/** The batcher of the chain's CommittedLedger, or null when none is deployed (or the treasury differs). */
async function batcherFor(ctx: ServiceContext): Promise<Batcher | null> {
  const file = ctx.config.deploymentFile;
  if (!existsSync(file)) return null;
  const deployment = readDeployment(file);
  const ledger = deployment.contracts.CommittedLedger;
  if (!ledger) return null;
  const treasury = deployment.treasury?.toLowerCase();
  if (treasury && treasury !== ctx.config.TREASURY_ADDRESS.toLowerCase()) {
    // The journal's header names the engine's fee sink; publishing it to a ledger deployed for another treasury would
    // make a chain no replay agrees with.
    ctx.log.error(
      { deployed: treasury, configured: ctx.config.TREASURY_ADDRESS },
      "TREASURY_ADDRESS differs from the deployment's treasury: batches are not published",
    );
    return null;
  }
  return openBatcher(ctx.db, batcherConfigOf(ctx.config, ledger, treasury ?? ctx.config.TREASURY_ADDRESS), ctx.log.child({ part: "batcher" }));
}
