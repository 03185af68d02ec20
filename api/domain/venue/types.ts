/**
 * The committed-lane venue as the API sees it: the journal-backed exchange, the engine account of each agent and the
 * engine market behind each catalog address. Opened once by `createServices` (api/open-services.ts, with
 * api/domain/venue/open-venue.ts) before the app is built, and shared through `Services.venue`; operations never build
 * their own.
 */
import type { Address } from "viem";
import type { Exchange } from "../../../relayer/exchange/exchange";
import type { Batcher } from "../../../relayer/batcher";
import type { KeyPrincipal } from "../auth/principal";
import type { CatalogMarket } from "../markets/catalog-types";

export interface VenueMarket {
  market: CatalogMarket;
  /** The engine's market id (catalog `marketId`, committed lane). */
  marketId: bigint;
}

export interface Venue {
  /**
   * Single writer: `submit(command)` journals, then answers `{ok: true, result, ops, reports}`, or a refusal as a value
   * (`{ok: false, code, message, details}`; `accepted()` of api/platform/errors/engine-rejection.ts turns it into its problem).
   */
  readonly exchange: Exchange;
  /** Publishes the journal to the CommittedLedger; null when no ledger is deployed for the chain. */
  readonly batcher: Batcher | null;
  /**
   * The agent's engine account (lower-case ledger account). Opened on first use: `openAccount` at the agent's
   * signup instant and the starting PM grant (docs/trading.md "Play money").
   */
  accountOf(principal: KeyPrincipal): Promise<Address>;
  /** The same for a known ledger account (lower-case) and signup instant, without a key (admin, demo agents). */
  openAccount(account: Address, signupAt: number): Promise<Address>;
  /** A committed-lane market by catalog address; ApiError MARKET_NOT_FOUND otherwise. */
  marketAt(address: string): Promise<VenueMarket>;
  close(): Promise<void>;
}
