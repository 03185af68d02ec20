/**
 * The negotiations of the negotiate flow (table market_negotiations, migration 310): one row per proposal, moved
 * proposed → accepted | rejected, accepted → deployed. Rows are read back as `Negotiation`; the flow (./flow.ts)
 * decides the moves.
 */
import type { SqlRunner } from "../../../../relayer/db/client";
import type { MarketTerms } from "./terms";

export type NegotiationStatus = "proposed" | "accepted" | "rejected" | "lapsed" | "deployed";

export interface Negotiation {
  id: string;
  agentId: string;
  creator: string;
  externalId: string;
  lane: "committed" | "onchain";
  status: NegotiationStatus;
  terms: MarketTerms;
  termsHash: `0x${string}`;
  marketId: bigint | null;
  marketAddress: string | null;
  txHash: string | null;
  result: Record<string, unknown> | null;
  createdAt: number;
  expiresAt: number;
  decidedAt: number | null;
  deployedAt: number | null;
}

type Row = Record<string, unknown>;
const json = <T>(v: unknown): T => (typeof v === "string" ? (JSON.parse(v) as T) : (v as T));
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function fromRow(r: Row): Negotiation {
  return {
    id: String(r.id),
    agentId: String(r.agent_id),
    creator: String(r.creator),
    externalId: String(r.external_id),
    lane: r.lane as Negotiation["lane"],
    status: r.status as NegotiationStatus,
    terms: json<MarketTerms>(r.terms),
    termsHash: String(r.terms_hash) as `0x${string}`,
    marketId: r.market_id === null || r.market_id === undefined ? null : BigInt(String(r.market_id)),
    marketAddress: (r.market_address as string | null) ?? null,
    txHash: (r.tx_hash as string | null) ?? null,
    result: r.result === null || r.result === undefined ? null : json<Record<string, unknown>>(r.result),
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
    decidedAt: numOrNull(r.decided_at),
    deployedAt: numOrNull(r.deployed_at),
  };
}

export async function insertNegotiation(
  db: SqlRunner,
  n: Pick<Negotiation, "id" | "agentId" | "creator" | "externalId" | "lane" | "terms" | "termsHash" | "createdAt" | "expiresAt">,
): Promise<Negotiation> {
  const rows = await db.query(
    `INSERT INTO market_negotiations (id, agent_id, creator, external_id, lane, status, terms, terms_hash, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, 'proposed', $6::text::jsonb, $7, $8, $9) RETURNING *`,
    [n.id, n.agentId, n.creator, n.externalId, n.lane, JSON.stringify(n.terms), n.termsHash, n.createdAt, n.expiresAt],
  );
  return fromRow(rows[0]!);
}

/** The agent's negotiation `id`; `lock` takes the row for update inside a transaction. */
export async function loadNegotiation(db: SqlRunner, agentId: string, id: string, opts: { lock?: boolean } = {}): Promise<Negotiation | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const rows = await db.query(`SELECT * FROM market_negotiations WHERE id = $1 AND agent_id = $2${opts.lock ? " FOR UPDATE" : ""}`, [id, agentId]);
  return rows[0] ? fromRow(rows[0]) : null;
}

/** Moves the negotiation and answers it as it now is. */
export async function setNegotiationStatus(
  db: SqlRunner,
  id: string,
  status: NegotiationStatus,
  fields: { expiresAt?: number; decidedAt?: number },
): Promise<Negotiation> {
  const rows = await db.query(
    `UPDATE market_negotiations SET status = $2, expires_at = COALESCE($3, expires_at), decided_at = COALESCE($4, decided_at) WHERE id = $1 RETURNING *`,
    [id, status, fields.expiresAt ?? null, fields.decidedAt ?? null],
  );
  return fromRow(rows[0]!);
}

/**
 * Reserves the next engine market id of both lanes for the negotiation (above every id the catalog lists and every
 * id a negotiation reserved) and answers it; a negotiation that holds one keeps it. One statement; callers hand ids
 * out one at a time (two concurrent statements could read the same maximum).
 */
export async function reserveNextMarketId(db: SqlRunner, id: string): Promise<bigint> {
  const [r] = await db.query<{ market_id: unknown }>(
    `UPDATE market_negotiations SET market_id = COALESCE(market_id,
       GREATEST((SELECT COALESCE(MAX(market_id), 0) FROM markets), (SELECT COALESCE(MAX(market_id), 0) FROM market_negotiations)) + 1)
     WHERE id = $1 RETURNING market_id::text`,
    [id],
  );
  return BigInt(String(r!.market_id));
}

export async function markDeployed(
  db: SqlRunner,
  id: string,
  fields: { marketAddress: string; txHash: string | null; result: Record<string, unknown>; at: number },
): Promise<void> {
  await db.query(
    `UPDATE market_negotiations SET status = 'deployed', market_address = $2, tx_hash = $3, result = $4::text::jsonb, deployed_at = $5 WHERE id = $1`,
    [id, fields.marketAddress, fields.txHash, JSON.stringify(fields.result, (_k, v) => (typeof v === "bigint" ? v.toString() : v)), fields.at],
  );
}

/**
 * Whether the creator already used this externalId: a market it listed, or a live negotiation (accepted and not
 * expired, or deployed). One statement: preflight and propose ask it on every call.
 */
export async function externalIdTaken(db: SqlRunner, creator: string, externalId: string, now: number): Promise<boolean> {
  const [r] = await db.query<{ taken: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM markets WHERE creator = $1 AND external_id = $2)
         OR EXISTS (SELECT 1 FROM market_negotiations WHERE creator = $1 AND external_id = $2
                      AND (status = 'deployed' OR (status = 'accepted' AND expires_at > $3))) AS taken`,
    [creator, externalId, now],
  );
  return r?.taken === true;
}

/** An accepted negotiation past its deploy-by instant gives its externalId and reservation back (status lapsed). */
export async function releaseExpired(db: SqlRunner, creator: string, externalId: string, now: number): Promise<void> {
  await db.query(`UPDATE market_negotiations SET status = 'lapsed' WHERE creator = $1 AND external_id = $2 AND status = 'accepted' AND expires_at <= $3`, [
    creator,
    externalId,
    now,
  ]);
}

/** The agent's accepted, undeployed negotiation of this externalId whose deploy window is still open, or null. */
export async function liveNegotiationOf(db: SqlRunner, agentId: string, externalId: string, now: number): Promise<Negotiation | null> {
  const rows = await db.query(
    `SELECT * FROM market_negotiations WHERE agent_id = $1 AND external_id = $2 AND status = 'accepted' AND expires_at > $3 ORDER BY created_at DESC LIMIT 1`,
    [agentId, externalId, now],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}
