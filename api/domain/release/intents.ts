/**
 * Claims of the participation release (docs/participation-release.md): each is a voucher for the identity's
 * cumulative entitlement, paid to one member's wallet when a transaction presents it to the distributor. The chain
 * decides what happened to it; `observe` reads it there and `save` keeps the answer.
 *
 * Statuses: `prepared` (voucher issued, no transaction known), `submitted` (a transaction was reported, no receipt
 * yet), `projection_pending` (its payment is on chain, not yet final), `paid` (final), `failed` (its transaction
 * reverted; the voucher may be presented again until it expires), `expired_awaiting_finality` (expired with a
 * transaction reported and not found yet), `unpaid` (expired without a payment). An intent stays `open`, and blocks a
 * new one for the identity, until it is paid or can no longer be.
 */
import type { Address, Hex } from "viem";
import type { SqlRunner } from "../../../relayer/db/client";
import { intentKey } from "../../../relayer/participation-release";
import type { DistributorChain } from "./distributor-chain";
import { FINALITY_GRACE_MS, type DeliveryMode, type DistributionStatus } from "./program";

export interface Intent {
  id: string;
  identityId: string;
  agentId: string;
  recipient: Address;
  cumulative: bigint;
  amount: bigint;
  status: Exclude<DistributionStatus, "none">;
  deliveryMode: DeliveryMode;
  open: boolean;
  expiresAt: number;
  txHash: Hex | null;
  blockNumber: bigint | null;
  createdAt: number;
  updatedAt: number;
  paidAt: number | null;
}

interface Row {
  id: string;
  identity_id: string;
  agent_id: string;
  recipient: string;
  cumulative: string;
  amount: string;
  status: Intent["status"];
  delivery_mode: DeliveryMode;
  open: boolean;
  expires_at: string;
  tx_hash: string | null;
  block_number: string | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
}

const SELECT = `SELECT id, identity_id, agent_id, recipient, cumulative::text, amount::text, status, delivery_mode, open, expires_at::text, tx_hash,
  block_number::text, created_at::text, updated_at::text, paid_at::text FROM participation_intents`;

function intentOf(r: Row): Intent {
  return {
    id: r.id,
    identityId: r.identity_id,
    agentId: r.agent_id,
    recipient: r.recipient as Address,
    cumulative: BigInt(r.cumulative),
    amount: BigInt(r.amount),
    status: r.status,
    deliveryMode: r.delivery_mode,
    open: r.open,
    expiresAt: Number(r.expires_at),
    txHash: r.tx_hash as Hex | null,
    blockNumber: r.block_number === null ? null : BigInt(r.block_number),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    paidAt: r.paid_at === null ? null : Number(r.paid_at),
  };
}

export async function intentById(db: SqlRunner, id: string): Promise<Intent | null> {
  const [row] = await db.query<Row>(`${SELECT} WHERE id = $1`, [id]);
  return row ? intentOf(row) : null;
}

/** The identity's newest intent (the one the state shows), or its open one with `open`. */
export async function latestIntent(db: SqlRunner, identityId: string, only: "any" | "open" = "any"): Promise<Intent | null> {
  const [row] = await db.query<Row>(`${SELECT} WHERE identity_id = $1 ${only === "open" ? "AND open" : ""} ORDER BY created_at DESC, id DESC LIMIT 1`, [
    identityId,
  ]);
  return row ? intentOf(row) : null;
}

export async function insertIntent(tx: SqlRunner, releaseId: string, i: Intent): Promise<void> {
  await tx.query(
    `INSERT INTO participation_intents (id, release_id, identity_id, agent_id, recipient, cumulative, amount, status, delivery_mode, open, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      i.id,
      releaseId,
      i.identityId,
      i.agentId,
      i.recipient,
      i.cumulative.toString(),
      i.amount.toString(),
      i.status,
      i.deliveryMode,
      i.open,
      i.expiresAt,
      i.createdAt,
      i.updatedAt,
    ],
  );
}

/** Writes what `observe` found, when it changed anything. */
export async function saveIntent(db: SqlRunner, before: Intent, after: Intent): Promise<void> {
  const same =
    before.status === after.status &&
    before.open === after.open &&
    before.txHash === after.txHash &&
    before.amount === after.amount &&
    before.blockNumber === after.blockNumber;
  if (same) return;
  await db.query(
    `UPDATE participation_intents SET status = $2, open = $3, tx_hash = $4, block_number = $5, amount = $6, paid_at = $7, updated_at = $8 WHERE id = $1`,
    [after.id, after.status, after.open, after.txHash, after.blockNumber?.toString() ?? null, after.amount.toString(), after.paidAt, after.updatedAt],
  );
}

/** Paid intents of the identity: their sum, and when the last one was prepared. */
export async function paidSummary(db: SqlRunner, identityId: string): Promise<{ paidWei: bigint; lastPreparedAt: number | null }> {
  const [row] = await db.query<{ total: string; last: string | null }>(
    `SELECT COALESCE(sum(amount), 0)::text AS total, max(created_at)::text AS last FROM participation_intents WHERE identity_id = $1 AND status = 'paid'`,
    [identityId],
  );
  return { paidWei: BigInt(row.total), lastPreparedAt: row.last === null ? null : Number(row.last) };
}

export interface Observation {
  distributor: Address;
  /** Confirmations a payment needs to be final (the block that holds it counts as one). */
  confirmations: number;
  /** The service's clock (ms). */
  now: number;
  /** The later of the service's clock and the chain's latest block time (ms): vouchers expire by it. */
  expiryNow: number;
}

/** What the chain says of `intent` now. Terminal intents are returned as they are. */
export async function observe(chain: DistributorChain, intent: Intent, at: Observation): Promise<Intent> {
  if (!intent.open) return intent;
  const key = intentKey(intent.id);
  let reverted = false;
  let payment = null;
  if (intent.txHash) {
    const receipt = await chain.receipt(at.distributor, intent.txHash);
    reverted = receipt?.status === "reverted";
    payment = receipt?.payments.find((p) => p.intentKey === key) ?? null;
  }
  // Anyone may present a voucher: its payment may be in a transaction nobody reported.
  payment ??= await chain.paymentOf(at.distributor, key);
  const next = (status: Intent["status"], open: boolean, more: Partial<Intent> = {}): Intent => ({ ...intent, status, open, updatedAt: at.now, ...more });
  if (payment) {
    const final = (await chain.confirmations(payment.blockNumber)) >= at.confirmations;
    const fields = { txHash: payment.txHash, blockNumber: payment.blockNumber, amount: payment.amount };
    return final ? next("paid", false, { ...fields, paidAt: intent.paidAt ?? at.now }) : next("projection_pending", true, fields);
  }
  const expired = at.expiryNow > intent.expiresAt;
  if (reverted) return next("failed", !expired);
  if (!intent.txHash) return expired ? next("unpaid", false) : next("prepared", true);
  if (!expired) return next("submitted", true);
  return at.expiryNow > intent.expiresAt + FINALITY_GRACE_MS ? next("unpaid", false) : next("expired_awaiting_finality", true);
}
