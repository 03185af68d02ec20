/**
 * The negotiate flow's first half (docs/market-creation.md): preflight (every check at once), propose (the server's
 * terms), accept (the gates again, under the creator's lock, reserving a place under the concurrent limit and a
 * cohort slot) and reject. The deploy steps are ./deploy.ts. Each step answers a value or throws an ApiError; a
 * refused step changes nothing.
 */
import { randomUUID } from "node:crypto";
import type { Address } from "viem";
import type { CommitUnit } from "../../../relayer/db/group-commit";
import { COLLATERAL_ASSET } from "../../../decoder";
import type { ServiceContext } from "../../context";
import { ApiError } from "../../platform/errors/api-error";
import type { KeyPrincipal } from "../auth/principal";
import type { Venue } from "../venue/types";
import type { RowSink } from "../../../relayer/db/group-commit";
import type { CatalogMarket } from "../markets/catalog-types";
import { ADMISSIONS_SINK, creationState, CreationState, type CreatorEntry } from "./creation-state";
import { DEFAULT_SLOT_LIMIT, standingOf, type CreatorStanding, type OutcomeOf } from "./creator-standing";
import type { FactoryFeeReader } from "./factory-fees";
import { refusal, type CheckFailure } from "./failures";
import { NEGOTIATION_LAPSES_SINK, NEGOTIATION_MOVES_SINK, negotiationMoveRow, negotiationRow, NEGOTIATIONS_SINK, type Negotiation } from "./negotiation-store";
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

/** The creator's ledger account (opened on first use, with its starting grant), its mirror and its standing now. */
async function creatorOf(d: CreationDeps, principal: KeyPrincipal) {
  const account = (await d.venue.accountOf(principal)).toLowerCase();
  const state = creationState(d.ctx.db);
  const [entry, cohort] = await Promise.all([state.creator(account), state.cohort()]);
  const now = d.ctx.clock.now();
  return { account, now, entry, standing: standingOf(CreationState.standingInputs(entry, cohort, now), d.outcomeOf) };
}

export async function runPreflight(
  d: CreationDeps,
  principal: KeyPrincipal,
  request: CreationRequest,
): Promise<PreflightAnswer & { account: string; now: number }> {
  const { account, now, entry, standing } = await creatorOf(d, principal);
  // Lapsed terms (accepted, not deployed in time) do not hold the externalId; accept marks them lapsed.
  const taken = CreationState.externalIdTaken(entry, request.externalId, now);
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

export async function propose(d: CreationDeps, principal: KeyPrincipal, request: CreationRequest, unit: CommitUnit | null): Promise<Negotiation> {
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
  const n: Negotiation = {
    id,
    agentId: principal.agentId,
    creator: pre.account,
    externalId: request.externalId,
    lane: pre.plan.lane,
    status: "proposed",
    terms,
    termsHash: termsHashOf(terms),
    marketId: null,
    marketAddress: null,
    txHash: null,
    result: null,
    createdAt: pre.now,
    expiresAt: pre.now + ACCEPT_WINDOW_MS,
    decidedAt: null,
    deployedAt: null,
  };
  await stageNegotiation(d, n, unit);
  return n;
}

/** Writes the negotiation as it now is in the call's commit unit (see creation-state.ts `stage`). */
function stageNegotiation(d: CreationDeps, n: Negotiation, unit: CommitUnit | null): Promise<void> {
  const row: readonly [RowSink, string] = n.status === "proposed" ? [NEGOTIATIONS_SINK, negotiationRow(n)] : [NEGOTIATION_MOVES_SINK, negotiationMoveRow(n)];
  return creationState(d.ctx.db).stage([row], (s) => s.setNegotiation(n), { unit, negotiationId: n.id });
}

export async function requireNegotiation(d: CreationDeps, principal: KeyPrincipal, id: string): Promise<Negotiation> {
  const n = await creationState(d.ctx.db).negotiation(principal.agentId, id);
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
 * Accepts the terms: the gates are checked again against the creator's mirror (the concurrent limit counts live
 * markets and accepted, undeployed terms, staged ones included), a cohort slot is taken if the creator holds none,
 * and the terms become deployable until `deployBy`. From the checks to `stage` nothing awaits, so two accepts of one
 * creator never both take its last place. Accepting accepted terms answers them again.
 */
export async function accept(d: CreationDeps, principal: KeyPrincipal, id: string, unit: CommitUnit | null): Promise<Negotiation> {
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
  const state = creationState(db);
  const [entry, cohort] = await Promise.all([state.creator(first.creator), state.cohort()]);
  // Synchronous from here to `stage`: the checks and the reservation are one step for every other call.
  const n = state.negotiations.get(id) ?? first;
  if (n.status !== "proposed") throw stateError(n, "accept");
  const standing = standingOf(CreationState.standingInputs(entry, cohort, now), d.outcomeOf);
  const failures: CheckFailure[] = [];
  if (!standing.tierGates.canCreate)
    failures.push({ code: "CREATION_NOT_ALLOWED", field: "creator", message: "creation is closed to you now; see GET /discover/reputation" });
  else if (standing.creation.remaining <= 0)
    failures.push({
      code: "CONCURRENT_MARKET_LIMIT",
      field: "creator",
      message: `your limit of ${standing.creation.effectiveConcurrentLimit} live markets and accepted terms is reached`,
    });
  if ([...entry.markets.values()].some((m) => m.externalId === n.externalId))
    failures.push({
      code: "EXTERNAL_ID_TAKEN",
      field: "externalId",
      message: `you already created a market with externalId ${JSON.stringify(n.externalId)}`,
    });
  else if (CreationState.externalIdTaken(entry, n.externalId, now, n.id))
    failures.push({
      code: "EXTERNAL_ID_TAKEN",
      field: "externalId",
      message: `you already hold accepted terms for externalId ${JSON.stringify(n.externalId)}`,
    });
  if (failures.length > 0) throw refusal(failures);
  const admission = admissionOf(entry, cohort.slotLimit, cohort.holders.size, standing.granted);
  if (admission === "refused")
    throw refusal([{ code: "CREATION_NOT_ALLOWED", field: "creator", message: "no public creator slot is left", reason: "cohort_full" }]);
  // Accepted terms past their deploy-by instant give the externalId back (written before this acceptance).
  const lapsed = [...entry.claims].filter(([, c]) => c.status === "accepted" && c.externalId === n.externalId && c.expiresAt <= now).map(([lid]) => lid);
  const next: Negotiation = { ...n, status: "accepted", expiresAt: now + DEPLOY_WINDOW_MS, decidedAt: now };
  const ordinal = cohort.maxOrdinal + 1;
  const creator = n.creator;
  await state.stage(
    [
      ...lapsed.map((lid) => [NEGOTIATION_LAPSES_SINK, JSON.stringify({ id: lid })] as const),
      ...(admission === "admit" ? [[ADMISSIONS_SINK, JSON.stringify({ creator, slot_ordinal: ordinal, updated_at: now })] as const] : []),
      [NEGOTIATION_MOVES_SINK, negotiationMoveRow(next)] as const,
    ],
    (s) => {
      s.setNegotiation(next);
      const e = s.creators.get(creator);
      for (const lid of lapsed) {
        e?.claims.delete(lid);
        const old = s.negotiations.get(lid);
        if (old?.status === "accepted") s.setNegotiation({ ...old, status: "lapsed" });
      }
      e?.claims.set(next.id, { externalId: next.externalId, status: "accepted", expiresAt: next.expiresAt });
      if (admission === "admit") {
        if (e) e.slot = "held";
        s.globals?.holders.add(creator);
        if (s.globals) s.globals.maxOrdinal = Math.max(s.globals.maxOrdinal, ordinal);
      }
    },
    { unit, negotiationId: next.id },
  );
  return next;
}

/**
 * Whether accepting needs a public cohort slot: a creator with an operator's grant or a slot needs none; one whose
 * slot was revoked, or who finds the cohort full, is refused; otherwise it takes the next admission.
 */
function admissionOf(entry: CreatorEntry, slotLimit: number | null, occupied: number, granted: boolean): "none" | "admit" | "refused" {
  if (granted || entry.slot === "held") return "none";
  if (entry.slot === "revoked") return "refused";
  return occupied >= (slotLimit ?? DEFAULT_SLOT_LIMIT) ? "refused" : "admit";
}

/** Rejects proposed terms (nothing was locked or reserved). Rejecting rejected terms answers them again. */
export async function reject(d: CreationDeps, principal: KeyPrincipal, id: string, unit: CommitUnit | null): Promise<Negotiation> {
  const n = await requireNegotiation(d, principal, id);
  if (n.status === "rejected") return n;
  if (n.status !== "proposed") throw stateError(n, "reject");
  const next: Negotiation = { ...n, status: "rejected", decidedAt: d.ctx.clock.now() };
  await stageNegotiation(d, next, unit);
  return next;
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
