/**
 * The negotiate flow's first half (docs/market-creation.md): preflight (every check at once), propose (the server's
 * terms), accept (the gates again, under the creator's lock, reserving a place under the concurrent limit and a
 * cohort slot) and reject. The deploy steps are ./deploy.ts. Each step answers a value or throws an ApiError; a
 * refused step changes nothing.
 */
import { randomUUID } from "node:crypto";
import type { Address } from "viem";
import { COLLATERAL_ASSET } from "../../../../decoder";
import type { ServiceContext } from "../../../context";
import { ApiError } from "../../../platform/errors/api-error";
import type { KeyPrincipal } from "../../auth/principal";
import type { Venue } from "../../venue/types";
import type { CatalogMarket } from "../catalog-types";
import { admitCreator } from "./creator-admin";
import { creatorStanding, type CreatorStanding, type OutcomeOf } from "./creator-standing";
import type { FactoryFeeReader } from "./factory-fees";
import { refusal, type CheckFailure } from "./failures";
import { externalIdTaken, insertNegotiation, loadNegotiation, releaseExpired, setNegotiationStatus, type Negotiation } from "./negotiation-store";
import { preflight, type CreationPlan } from "./preflight";
import type { CreationRequest } from "./request";
import { servedCollaterals } from "./served-collaterals";
import { ACCEPT_WINDOW_MS, buildTerms, DEPLOY_WINDOW_MS, termsHashOf } from "./terms";

export interface CreationDeps {
  ctx: ServiceContext;
  venue: Venue;
  fees: FactoryFeeReader;
  /** How a final market of the engine ended for its creator (the tier rule reads it). */
  outcomeOf: OutcomeOf;
  /** Announces a newly listed market on the market data lane. */
  announce?: (market: CatalogMarket) => void;
}

export interface PreflightAnswer {
  ok: boolean;
  lane: "committed" | "onchain" | null;
  failures: CheckFailure[];
  standing: CreatorStanding;
  plan: CreationPlan | null;
}

/** The creator's ledger account (opened on first use, with its starting grant) and its standing now. */
async function creatorOf(d: CreationDeps, principal: KeyPrincipal) {
  const account = (await d.venue.accountOf(principal)).toLowerCase();
  const now = d.ctx.clock.now();
  return { account, now, standing: await creatorStanding(d.ctx.db, account, now, d.outcomeOf) };
}

export async function runPreflight(
  d: CreationDeps,
  principal: KeyPrincipal,
  request: CreationRequest,
): Promise<PreflightAnswer & { account: string; now: number }> {
  const { account, now, standing } = await creatorOf(d, principal);
  // Lapsed terms (accepted, not deployed in time) do not hold the externalId; accept marks them lapsed.
  const taken = await externalIdTaken(d.ctx.db, account, request.externalId, now);
  const availablePm = d.venue.exchange.engine.balance(account as Address, COLLATERAL_ASSET).available;
  const { failures, plan } = preflight({
    request,
    now,
    standing,
    availablePm,
    externalIdTaken: taken,
    walletAddress: principal.walletAddress,
    collaterals: servedCollaterals(d.ctx.config),
  });
  return { ok: failures.length === 0, lane: plan?.lane ?? null, failures, standing, plan, account, now };
}

export async function propose(d: CreationDeps, principal: KeyPrincipal, request: CreationRequest): Promise<Negotiation> {
  const pre = await runPreflight(d, principal, request);
  if (!pre.plan) throw refusal(pre.failures);
  const fees = await d.fees.read();
  const id = randomUUID();
  const terms = buildTerms({
    negotiationId: id,
    chainId: d.ctx.config.CHAIN_ID,
    creator: pre.account,
    externalId: request.externalId,
    plan: pre.plan,
    fees,
    proposedAt: pre.now,
  });
  return insertNegotiation(d.ctx.db, {
    id,
    agentId: principal.agentId,
    creator: pre.account,
    externalId: request.externalId,
    lane: pre.plan.lane,
    terms,
    termsHash: termsHashOf(terms),
    createdAt: pre.now,
    expiresAt: pre.now + ACCEPT_WINDOW_MS,
  });
}

export async function requireNegotiation(d: CreationDeps, principal: KeyPrincipal, id: string): Promise<Negotiation> {
  const n = await loadNegotiation(d.ctx.db, principal.agentId, id);
  if (!n) throw new ApiError("NEGOTIATION_NOT_FOUND", `no negotiation ${id} of yours`, { negotiationId: id });
  return n;
}

const stateError = (n: Negotiation, step: string) =>
  new ApiError(
    "NEGOTIATION_STATE",
    `negotiation ${n.id} is ${n.status}; ${step} needs ${step === "accept" || step === "reject" ? "proposed" : "accepted"} terms`,
    { status: n.status, negotiationId: n.id },
  );

/**
 * Accepts the terms: under the creator's row lock the gates are checked again (the concurrent limit counts live
 * markets and accepted, undeployed terms), a cohort slot is taken if the creator holds none, and the terms become
 * deployable until `deployBy`. Accepting accepted terms answers them again.
 */
export async function accept(d: CreationDeps, principal: KeyPrincipal, id: string): Promise<Negotiation> {
  const { db, clock } = d.ctx;
  const first = await requireNegotiation(d, principal, id);
  if (first.status === "accepted" || first.status === "deployed") return first;
  if (first.status !== "proposed") throw stateError(first, "accept");
  const now = clock.now();
  if (now >= first.expiresAt)
    throw new ApiError("NEGOTIATION_EXPIRED", `the terms expired at ${new Date(first.expiresAt).toISOString()}; propose again`, {
      negotiationId: id,
      expiresAt: new Date(first.expiresAt).toISOString(),
    });
  await releaseExpired(db, first.creator, first.externalId, now);
  try {
    return await db.transaction(async (tx) => {
      // The creator's row, made if need be and locked in one statement (an upsert that updates takes the row lock).
      const [creatorRow] = await tx.query<{ slot: "none" | "held" | "revoked" }>(
        `INSERT INTO market_creators (creator, updated_at) VALUES ($1, $2)
         ON CONFLICT (creator) DO UPDATE SET updated_at = market_creators.updated_at RETURNING slot`,
        [first.creator, now],
      );
      const n = await loadNegotiation(tx, principal.agentId, id, { lock: true });
      if (n?.status !== "proposed") throw stateError(n ?? first, "accept");
      const standing = await creatorStanding(tx, n.creator, now, d.outcomeOf);
      const failures: CheckFailure[] = [];
      if (!standing.tierGates.canCreate)
        failures.push({ code: "CREATION_NOT_ALLOWED", field: "creator", message: "creation is closed to you now; see GET /discover/reputation" });
      else if (standing.creation.remaining <= 0)
        failures.push({
          code: "CONCURRENT_MARKET_LIMIT",
          field: "creator",
          message: `your limit of ${standing.creation.effectiveConcurrentLimit} live markets and accepted terms is reached`,
        });
      const listed = await tx.query(`SELECT 1 FROM markets WHERE creator = $1 AND external_id = $2`, [n.creator, n.externalId]);
      if (listed.length > 0)
        failures.push({
          code: "EXTERNAL_ID_TAKEN",
          field: "externalId",
          message: `you already created a market with externalId ${JSON.stringify(n.externalId)}`,
        });
      if (failures.length > 0) throw refusal(failures);
      if (!(await admitCreator(tx, n.creator, standing.granted, creatorRow?.slot ?? "none", now)))
        throw refusal([{ code: "CREATION_NOT_ALLOWED", field: "creator", message: "no public creator slot is left", reason: "cohort_full" }]);
      return setNegotiationStatus(tx, id, "accepted", { expiresAt: now + DEPLOY_WINDOW_MS, decidedAt: now });
    });
  } catch (err) {
    // The unique (creator, externalId) index of live negotiations: another accepted negotiation holds the externalId.
    if ((err as { code?: unknown }).code === "23505")
      throw refusal([
        { code: "EXTERNAL_ID_TAKEN", field: "externalId", message: `you already hold accepted terms for externalId ${JSON.stringify(first.externalId)}` },
      ]);
    throw err;
  }
}

/** Rejects proposed terms (nothing was locked or reserved). Rejecting rejected terms answers them again. */
export async function reject(d: CreationDeps, principal: KeyPrincipal, id: string): Promise<Negotiation> {
  const n = await requireNegotiation(d, principal, id);
  if (n.status === "rejected") return n;
  if (n.status !== "proposed") throw stateError(n, "reject");
  return setNegotiationStatus(d.ctx.db, id, "rejected", { decidedAt: d.ctx.clock.now() });
}

/** The negotiation as the API shows it. */
export function negotiationView(n: Negotiation) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: n.id,
    status: n.status,
    lane: n.lane,
    externalId: n.externalId,
    terms: n.terms,
    termsHash: n.termsHash,
    /** proposed: accept by; accepted: deploy by. */
    expiresAt: iso(n.expiresAt)!,
    decidedAt: iso(n.decidedAt),
    market: n.marketId === null ? null : { marketId: n.marketId.toString(), address: n.marketAddress, chainId: n.terms.chainId },
    createdAt: iso(n.createdAt)!,
  };
}
