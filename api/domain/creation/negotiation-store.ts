/**
 * The negotiations of the negotiate flow (table market_negotiations, migration 310): one row per proposal, moved
 * proposed → accepted | rejected, accepted → deployed. Rows are read back as `Negotiation`; the flow (./flow.ts)
 * decides the moves.
 */
import type { SqlRunner } from "../../../relayer/db/client";
import { rowSink } from "../../../relayer/db/group-commit";
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

/** The agent's negotiation `id` as the database holds it (the flow reads it through creation-state.ts). */
export async function loadNegotiation(db: SqlRunner, agentId: string, id: string): Promise<Negotiation | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const rows = await db.query(`SELECT * FROM market_negotiations WHERE id = $1 AND agent_id = $2`, [id, agentId]);
  return rows[0] ? fromRow(rows[0]) : null;
}

const COLUMNS = `id, agent_id, creator, external_id, lane, status, terms, terms_hash, market_id, market_address, tx_hash, result, created_at,
  expires_at, decided_at, deployed_at`;

/**
 * Accepted negotiations past their deploy-by instant, moved to lapsed: they give their externalId back. A sink of
 * its own, defined before NEGOTIATIONS_SINK (sinks write in definition order) so a tick writes it first: the unique index of live externalIds must
 * see the lapsed row go before the new acceptance of the same externalId arrives.
 */
export const NEGOTIATION_LAPSES_SINK = rowSink(
  "market_negotiations_lapsed",
  `UPDATE market_negotiations AS n SET status = 'lapsed' FROM json_to_recordset($1::text::json) AS x(id uuid)
   WHERE n.id = x.id AND n.status = 'accepted'`,
);
/**
 * The flow's writes of negotiations: whole rows, upserted set-based in the shared commit tick. `ord` orders a tick's
 * rows of one negotiation (the last wins; ON CONFLICT may not touch a row twice in one statement).
 */
export const NEGOTIATIONS_SINK = rowSink(
  "market_negotiations",
  `INSERT INTO market_negotiations (${COLUMNS})
   SELECT DISTINCT ON (id) ${COLUMNS} FROM json_to_recordset($1::text::json) AS x(ord bigint, id uuid, agent_id uuid, creator text,
     external_id text, lane text, status text, terms jsonb, terms_hash text, market_id bigint, market_address text, tx_hash text, result jsonb,
     created_at bigint, expires_at bigint, decided_at bigint, deployed_at bigint)
   ORDER BY id, ord DESC
   ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, market_id = EXCLUDED.market_id, market_address = EXCLUDED.market_address,
     tx_hash = EXCLUDED.tx_hash, result = EXCLUDED.result, expires_at = EXCLUDED.expires_at, decided_at = EXCLUDED.decided_at,
     deployed_at = EXCLUDED.deployed_at`,
);

/**
 * A later step's move of a negotiation (accept, reject, prepare-deploy, commit-deploy): its changing columns only,
 * so a tick does not parse the terms again. Defined after NEGOTIATIONS_SINK; a step waits for the previous step's
 * commit, so the row it moves is always there.
 */
export const NEGOTIATION_MOVES_SINK = rowSink(
  "market_negotiations_moved",
  `UPDATE market_negotiations AS n SET status = x.status, market_id = x.market_id, market_address = x.market_address, tx_hash = x.tx_hash,
     result = x.result, expires_at = x.expires_at, decided_at = x.decided_at, deployed_at = x.deployed_at
   FROM (SELECT DISTINCT ON (id) * FROM json_to_recordset($1::text::json) AS r(ord bigint, id uuid, status text, market_id bigint,
     market_address text, tx_hash text, result jsonb, expires_at bigint, decided_at bigint, deployed_at bigint) ORDER BY id, ord DESC) AS x
   WHERE n.id = x.id`,
);

let ord = 0;
const bigintSafe = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);

/** A negotiation's move as a row of NEGOTIATION_MOVES_SINK. */
export function negotiationMoveRow(n: Negotiation): string {
  return JSON.stringify(
    {
      ord: ++ord,
      id: n.id,
      status: n.status,
      market_id: n.marketId === null ? null : n.marketId.toString(),
      market_address: n.marketAddress,
      tx_hash: n.txHash,
      result: n.result,
      expires_at: n.expiresAt,
      decided_at: n.decidedAt,
      deployed_at: n.deployedAt,
    },
    bigintSafe,
  );
}

/** A negotiation as a row of NEGOTIATIONS_SINK. */
export function negotiationRow(n: Negotiation): string {
  return JSON.stringify(
    {
      ord: ++ord,
      id: n.id,
      agent_id: n.agentId,
      creator: n.creator,
      external_id: n.externalId,
      lane: n.lane,
      status: n.status,
      terms: n.terms,
      terms_hash: n.termsHash,
      market_id: n.marketId === null ? null : n.marketId.toString(),
      market_address: n.marketAddress,
      tx_hash: n.txHash,
      result: n.result,
      created_at: n.createdAt,
      expires_at: n.expiresAt,
      decided_at: n.decidedAt,
      deployed_at: n.deployedAt,
    },
    bigintSafe,
  );
}

/** The agent's accepted, undeployed negotiation of this externalId whose deploy window is still open, or null. */
export async function liveNegotiationOf(db: SqlRunner, agentId: string, externalId: string, now: number): Promise<Negotiation | null> {
  const rows = await db.query(
    `SELECT * FROM market_negotiations WHERE agent_id = $1 AND external_id = $2 AND status = 'accepted' AND expires_at > $3 ORDER BY created_at DESC LIMIT 1`,
    [agentId, externalId, now],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}
