/**
 * PM's participation release for one agent (docs/participation-release.md): its state, a claim prepared as a signed
 * voucher and the transaction that presents it, the claim finalized from the transaction's receipt, and a claim read
 * back. One object per service (`Services.participation`); every answer is read from the chain and the database at
 * the time of the call, except the trading days, which follow the journal in memory.
 */
import { randomUUID } from "node:crypto";
import type { Address, Hex } from "viem";
import type { Database } from "../../../relayer/db/client";
import { identityKey, intentKey } from "../../../relayer/participation-release";
import { ApiError } from "../../platform/errors/api-error";
import { membersOf, membershipOfAgent, type Actor, type Membership } from "../identity/links";
import { bankFinishedDays, type CreditTotals, creditTotals, poolRemaining } from "./credits";
import type { DistributorChain, DistributorStatus } from "./distributor-chain";
import { insertIntent, intentById, latestIntent, observe, paidSummary, saveIntent, type Intent, type Observation } from "./intents";
import {
  ACTIVE_WINDOW_MS,
  CLAIM_CADENCE_MS,
  DAY_MS,
  dayOf,
  UNIT_WEI,
  VOUCHER_TTL_MS,
  type DeliveryMode,
  type LaneState,
  type MemberStatus,
  type ParticipationReasonCode,
  type RecipientRelation,
  type RefusalCode,
} from "./program";
import type { TradeDayLog, TradeRecord } from "./trade-days";

export interface ReleaseDeps {
  db: Database;
  chain: DistributorChain;
  tradeDays: TradeDayLog;
  now: () => number;
  /** Confirmations a payment needs before it counts as paid. */
  confirmations: number;
  /** Who sends a claim's transaction (PARTICIPATION_DELIVERY). */
  delivery: DeliveryMode | "auto";
}

/** Where the caller stands: its wallet, its identity and that identity's members, and why it cannot claim (if so). */
interface Standing {
  membership: Membership | null;
  members: Membership[];
  status: MemberStatus;
  /** Why a claim is refused for who the caller is, or null. */
  refusal: RefusalCode | null;
}

export interface Lane {
  state: LaneState;
  firstActivatedAt: number | null;
  activeUntil: number | null;
  lastQualifyingTradeAt: number | null;
  nextCreditAt: number | null;
}

export interface ReleaseState {
  deployment: DistributorStatus;
  standing: Standing;
  lane: Lane;
  amounts: { bankedWei: bigint; confirmedPaidWei: bigint; nextEstimatedWei: bigint; communityRemainingWei: bigint; newUnitsExhausted: boolean };
  distribution: Intent | null;
  claim: { ready: boolean; reasonCode: ParticipationReasonCode | null; notBefore: number | null };
}

/** What `#claimFacts` reads: see there. */
interface ClaimFacts {
  trades: TradeRecord[];
  verifiedAt: number | null;
  credits: CreditTotals;
  /** What the distributor paid the identity (the database's paid sum when the chain did not answer). */
  confirmedPaid: bigint;
  /** Banked and not paid: what a claim would pay. */
  outstanding: bigint;
  lastPaidPreparedAt: number | null;
  remaining: bigint;
  exhausted: boolean;
  /** The identity's newest claim as the chain has it: the open one, when one is open. */
  latest: Intent | null;
}

interface Refusal {
  code: RefusalCode;
  detail: string;
  /** When the reason lapses by itself, if it does. */
  notBefore: number | null;
  extensions?: Record<string, unknown>;
}

/**
 * Why a claim would be refused now, in the order a claim checks it, or null when it would be accepted: the one list
 * of the claim rules, which the state reports (`claim`) and a claim throws.
 */
function claimRefusal(deployment: DistributorStatus, standing: Standing, f: ClaimFacts, now: number): Refusal | null {
  const no = (code: RefusalCode, detail: string, notBefore: number | null = null, extensions?: Record<string, unknown>): Refusal => ({
    code,
    detail,
    notBefore,
    extensions,
  });
  if (deployment.state !== "active")
    return no(deployment.reasonCode ?? "PARTICIPATION_RELEASE_NOT_DEPLOYED", `the participation release is ${deployment.state}`);
  if (standing.refusal) return no(standing.refusal, memberDetail(standing.refusal));
  const open = f.latest?.open ? f.latest : null;
  if (open) {
    const extensions = { intentId: open.id, expiresAt: new Date(open.expiresAt).toISOString() };
    return standing.members.some((x) => x.walletAddress === open.recipient)
      ? no(
          "PARTICIPATION_DISTRIBUTION_ALREADY_PREPARED",
          "a claim of this identity is open: present its transaction, or wait until it expires",
          open.expiresAt,
          extensions,
        )
      : no(
          "PARTICIPATION_DISTRIBUTION_RECIPIENT_STALE",
          "the open claim pays a wallet that left the identity; it can be prepared again once it expires",
          open.expiresAt,
          extensions,
        );
  }
  if (f.lastPaidPreparedAt !== null && now < f.lastPaidPreparedAt + CLAIM_CADENCE_MS) {
    const notBefore = f.lastPaidPreparedAt + CLAIM_CADENCE_MS;
    const at = new Date(notBefore).toISOString();
    return no("PARTICIPATION_CLAIM_CADENCE_ACTIVE", `one claim per identity per ${CLAIM_CADENCE_MS / 3_600_000} hours; the next from ${at}`, notBefore, {
      notBefore: at,
    });
  }
  if (f.credits.bankedWei === 0n)
    return f.exhausted
      ? no("NEW_PARTICIPATION_RELEASE_UNITS_EXHAUSTED", "the community pool has no units left to bank")
      : no("NO_PARTICIPATION_RELEASE_CREDITS", "no unit banked yet: a unit is banked for each finished UTC day on which a member of the identity traded");
  if (f.outstanding <= 0n) return no("PARTICIPATION_DISTRIBUTION_ZERO_DELTA", "everything banked was already paid on chain");
  return null;
}

/** A refusal as the problem a claim answers; one that lapses by itself says when in `Retry-After`. */
function refusalError(r: Refusal, now: number): ApiError {
  const headers: Record<string, string> =
    r.code === "PARTICIPATION_CLAIM_CADENCE_ACTIVE" && r.notBefore !== null
      ? { "Retry-After": String(Math.max(1, Math.ceil((r.notBefore - now) / 1000))) }
      : {};
  return new ApiError(r.code, r.detail, r.extensions ?? {}, headers);
}

export class ParticipationRelease {
  constructor(private readonly deps: ReleaseDeps) {}

  /** The distributor on chain: deployed, paying, what it holds. */
  deploymentStatus(): Promise<DistributorStatus> {
    return this.deps.chain.status();
  }

  /** Everything `GET /participation-release` answers, for the calling agent. */
  async state(actor: Actor): Promise<ReleaseState> {
    const t = this.deps.now();
    const [deployment, standing] = await Promise.all([this.deps.chain.status(), this.#standing(actor)]);
    // A chain that stops answering here leaves the claim as last stored and the paid sum as the database has it.
    const f = await this.#claimFacts(deployment, standing, t, "lenient");
    const { credits, trades, verifiedAt } = f;

    // A trade counts from the day the identity was verified on.
    const last = trades.length ? Math.max(...trades.map((r) => r.lastAt)) : null;
    const lastAt = last !== null && verifiedAt !== null && dayOf(last) >= dayOf(verifiedAt) ? last : null;
    const tradedToday = verifiedAt !== null && trades.some((r) => r.days.has(dayOf(t))) && dayOf(t) >= dayOf(verifiedAt);
    const nextCreditAt = tradedToday && !f.exhausted ? (dayOf(t) + 1) * DAY_MS : null;
    const available = deployment.state === "active" && standing.status === "active";
    const laneState: LaneState = !available
      ? "unavailable"
      : lastAt === null
        ? "not_activated"
        : credits.firstDay === null
          ? "activation_pending"
          : t - lastAt < ACTIVE_WINDOW_MS
            ? "active"
            : "dormant";
    const lane: Lane = {
      state: laneState,
      firstActivatedAt: credits.firstDay === null ? null : (credits.firstDay + 1) * DAY_MS,
      activeUntil: lastAt === null ? null : lastAt + ACTIVE_WINDOW_MS,
      lastQualifyingTradeAt: lastAt,
      nextCreditAt: available ? nextCreditAt : null,
    };
    const refused = claimRefusal(deployment, standing, f, t);
    return {
      deployment,
      standing,
      lane,
      amounts: {
        bankedWei: f.outstanding,
        confirmedPaidWei: f.confirmedPaid,
        nextEstimatedWei: lane.nextCreditAt === null ? 0n : UNIT_WEI,
        communityRemainingWei: f.remaining,
        newUnitsExhausted: f.exhausted,
      },
      distribution: f.latest,
      claim: refused ? { ready: false, reasonCode: refused.code, notBefore: refused.notBefore } : { ready: true, reasonCode: null, notBefore: null },
    };
  }

  /**
   * Prepares a claim of everything the caller's identity banked and was not paid: a voucher signed by the operator and
   * the `claim` transaction that presents it, to be sent by the caller's wallet (or anyone's) before it expires; or,
   * delivered by `protocol_push`, sent by the service at once (no transaction in the answer). `deployment` is the
   * distributor's status as the caller read it (`deploymentStatus`).
   */
  async prepare(actor: Actor, deployment: DistributorStatus): Promise<{ intent: Intent; transaction: { chainId: number; to: Address; data: Hex } | null }> {
    const { db, chain, now } = this.deps;
    const t = now();
    const standing = await this.#standing(actor);
    const f = await this.#claimFacts(deployment, standing, t, "strict");
    const refused = claimRefusal(deployment, standing, f, t);
    if (refused) throw refusalError(refused, t);
    const address = deployment.address!;
    const m = standing.membership!;
    const delta = f.outstanding;
    if (deployment.inventoryWei !== null && deployment.inventoryWei < delta)
      throw refusal("PARTICIPATION_INVENTORY_LOW", "the distributor holds less PM than this claim; try again later");

    const expiresAt = Math.floor(((await this.#expiryNow(t)) + VOUCHER_TTL_MS) / 1000) * 1000;
    const recipient = actor.walletAddress as Address;
    const intent: Intent = {
      id: `pri_${randomUUID()}`,
      identityId: m.identityId,
      agentId: actor.agentId,
      recipient,
      cumulative: f.credits.bankedWei,
      amount: delta,
      status: "prepared",
      deliveryMode: await this.#deliveryFor(recipient),
      open: true,
      expiresAt,
      txHash: null,
      blockNumber: null,
      createdAt: t,
      updatedAt: t,
      paidAt: null,
    };
    await db.transaction(async (tx) => {
      // One claim at a time per identity: two members preparing at once queue here, and the second sees the first.
      await tx.query(`SELECT id FROM identities WHERE id = $1 FOR UPDATE`, [m.identityId]);
      const [other] = await tx.query<{ id: string }>(`SELECT id FROM participation_intents WHERE identity_id = $1 AND open`, [m.identityId]);
      if (other) throw refusal("PARTICIPATION_DISTRIBUTION_ALREADY_PREPARED", "another claim of this identity was prepared meanwhile", { intentId: other.id });
      await insertIntent(tx, deployment.releaseId, intent);
    });
    if (intent.deliveryMode === "self_claim") return { intent, transaction: { chainId: deployment.chainId, ...(await this.#transactionOf(intent, address)) } };
    // protocol_push: the service sends it. A send that fails leaves the claim prepared; its transaction is then in
    // GET /participation-release/distributions/{intentId} for any wallet to send.
    const pushed = await chain.push(address, this.#voucherOf(intent)).then(
      (txHash): Intent => ({ ...intent, txHash, status: "submitted", updatedAt: this.deps.now() }),
      () => intent,
    );
    await saveIntent(db, intent, pushed);
    return { intent: pushed, transaction: null };
  }

  /** Records the transaction that presented an intent's voucher, checked against its receipt, and reads where it stands. */
  async finalize(actor: Actor, deployment: DistributorStatus, intentId: string, txHash: Hex): Promise<Intent> {
    const { chain } = this.deps;
    if (!deployment.address) throw refusal("PARTICIPATION_RELEASE_NOT_DEPLOYED", "the participation release is not deployed on this chain");
    if (deployment.state === "degraded") throw refusal("PARTICIPATION_ROUTE_DEGRADED", "the chain does not answer; finalize again later");
    const intent = await this.#visibleIntent(actor, intentId);
    const key = intentKey(intent.id);
    if (intent.txHash && intent.txHash !== txHash && (intent.status === "paid" || intent.status === "projection_pending"))
      throw refusal("PARTICIPATION_DISTRIBUTION_EVENT_MISMATCH", `this claim was paid by transaction ${intent.txHash}`, { transactionHash: intent.txHash });
    const receipt = await chain.receipt(deployment.address, txHash);
    if (receipt?.status === "success" && !receipt.payments.some((p) => p.intentKey === key))
      throw refusal("PARTICIPATION_DISTRIBUTION_EVENT_MISMATCH", "the transaction succeeded but paid no distribution of this claim");
    if (!intent.open && intent.status === "unpaid")
      throw refusal("PARTICIPATION_DISTRIBUTION_VOUCHER_EXPIRED", "the claim's voucher expired unpaid; prepare a new claim");
    if (!intent.open) return intent;
    return this.#refresh({ ...intent, txHash }, deployment.address, intent);
  }

  /** A claim of the caller's identity, as the chain has it now. */
  async distribution(
    actor: Actor,
    deployment: DistributorStatus,
    intentId: string,
  ): Promise<{ intent: Intent; transaction: { chainId: number; to: Address; data: Hex } | null }> {
    const intent = await this.#visibleIntent(actor, intentId);
    if (!deployment.address || deployment.state === "degraded") return { intent, transaction: null };
    const now = await this.#refresh(intent, deployment.address);
    // The voucher's transaction again, while it can still be presented (the prepare answer may have been lost).
    const presentable = now.open && (now.status === "prepared" || now.status === "failed" || now.status === "submitted");
    return { intent: now, transaction: presentable ? { chainId: deployment.chainId, ...(await this.#transactionOf(now, deployment.address)) } : null };
  }

  /** The relation of a claim's recipient to the viewing agent. */
  async recipientRelation(actor: Actor, intent: Intent): Promise<RecipientRelation> {
    if (actor.walletAddress && intent.recipient === actor.walletAddress.toLowerCase()) return "self";
    const root = (await membersOf(this.deps.db, intent.identityId)).find((x) => x.role === "root");
    return root?.walletAddress === intent.recipient ? "root" : "another_linked_member";
  }

  async #standing(actor: Actor): Promise<Standing> {
    if (!actor.walletAddress) return { membership: null, members: [], status: "not_linked", refusal: "AGENT_OPERATING_WALLET_NOT_LINKED" };
    const membership = await membershipOfAgent(this.deps.db, actor.agentId);
    if (!membership) return { membership, members: [], status: "not_linked", refusal: "CURRENT_IDENTITY_MEMBERSHIP_REQUIRED" };
    const members = await membersOf(this.deps.db, membership.identityId);
    if (membership.verifiedAt === null) return { membership, members, status: "inactive", refusal: "ACTIVE_VERIFIED_IDENTITY_REQUIRED" };
    return { membership, members, status: "active", refusal: null };
  }

  /**
   * What the claim rules and the state read, for the caller's identity: its trading days (banked first, when it is
   * verified), its units, its paid claims, the pool, what the distributor paid it and its newest claim, read from the
   * chain now. `lenient` (the state) keeps the stored claim and the database's paid sum when the chain fails; `strict`
   * (a claim) fails with it.
   */
  async #claimFacts(deployment: DistributorStatus, standing: Standing, now: number, mode: "strict" | "lenient"): Promise<ClaimFacts> {
    const { db, chain } = this.deps;
    const m = standing.membership;
    const verifiedAt = standing.status === "active" ? m!.verifiedAt! : null;
    const trades = m ? await this.deps.tradeDays.of(standing.members.map((x) => x.ledgerAccount)) : [];
    if (verifiedAt !== null) {
      const tradeDays = new Set(trades.flatMap((r) => [...r.days]));
      await bankFinishedDays(db, deployment.releaseId, { identityId: m!.identityId, verifiedAt, tradeDays }, now);
    }
    const identityId = m?.identityId ?? null;
    const readable = deployment.address !== null && (deployment.state === "active" || deployment.state === "payment_paused");
    const onChain = <T>(read: Promise<T>, fallback: T) => (mode === "lenient" ? read.catch(() => fallback) : read);
    const [credits, paid, remaining, paidOnChain] = await Promise.all([
      identityId ? creditTotals(db, identityId) : { bankedWei: 0n, firstDay: null },
      identityId ? paidSummary(db, identityId) : { paidWei: 0n, lastPreparedAt: null },
      poolRemaining(db, deployment.releaseId),
      // The distributor's own count is the authority: it includes a payment whose claim was never finalized here.
      identityId && readable ? onChain<bigint | null>(chain.paidTo(deployment.address!, identityKey(identityId)), null) : null,
    ]);
    let latest = identityId ? await latestIntent(db, identityId) : null;
    if (latest && deployment.address && deployment.state !== "degraded") latest = await onChain(this.#refresh(latest, deployment.address), latest);
    const confirmedPaid = paidOnChain ?? paid.paidWei;
    return {
      trades,
      verifiedAt,
      credits,
      confirmedPaid,
      outstanding: credits.bankedWei - confirmedPaid,
      lastPaidPreparedAt: paid.lastPreparedAt,
      remaining,
      exhausted: remaining < UNIT_WEI,
      latest,
    };
  }

  /** The later of the service's clock and the chain's time: a voucher's expiry is judged by the chain. */
  async #expiryNow(now: number): Promise<number> {
    return Math.max(now, await this.deps.chain.chainTime());
  }

  async #refresh(intent: Intent, distributor: Address, stored: Intent = intent): Promise<Intent> {
    const now = this.deps.now();
    const at: Observation = { distributor, confirmations: this.deps.confirmations, now, expiryNow: await this.#expiryNow(now) };
    const after = await observe(this.deps.chain, intent, at);
    await saveIntent(this.deps.db, stored, after);
    return after;
  }

  async #visibleIntent(actor: Actor, intentId: string): Promise<Intent> {
    const intent = await intentById(this.deps.db, intentId);
    const m = intent && (await membershipOfAgent(this.deps.db, actor.agentId));
    // Any current member of the claim's identity may read it; to anyone else it does not exist.
    if (!intent || !m || m.identityId !== intent.identityId) throw new ApiError("DISTRIBUTION_NOT_FOUND", `no claim ${intentId} of this agent's identity`);
    return intent;
  }

  #voucherOf(intent: Intent) {
    return {
      identity: identityKey(intent.identityId),
      recipient: intent.recipient,
      cumulativeAmount: intent.cumulative,
      intentId: intentKey(intent.id),
      expiresAt: BigInt(intent.expiresAt / 1000),
    };
  }

  #transactionOf(intent: Intent, distributor: Address) {
    return this.deps.chain.claimTransaction(distributor, this.#voucherOf(intent));
  }

  /** `self_claim`, or `protocol_push` when the service sends (always, or with `auto` when the recipient has no gas). */
  async #deliveryFor(recipient: Address): Promise<DeliveryMode> {
    const how = this.deps.delivery;
    if (how !== "auto") return how;
    return (await this.deps.chain.gasBalance(recipient)) === 0n ? "protocol_push" : "self_claim";
  }
}

function memberDetail(code: RefusalCode): string {
  switch (code) {
    case "AGENT_OPERATING_WALLET_NOT_LINKED":
      return "the release pays an agent's wallet: bind one with POST /agents/me/bind-wallet";
    case "CURRENT_IDENTITY_MEMBERSHIP_REQUIRED":
      return "the release is per identity: make one with POST /identity/link-code, or join one with POST /identity/link-consent";
    default:
      return "the release pays verified identities only; the operator verifies an identity";
  }
}

function refusal(code: RefusalCode, detail: string, extensions: Record<string, unknown> = {}): ApiError {
  return new ApiError(code, detail, extensions);
}
