/** Prepared trade intents of the onchain lane, by digest (migration 220_trade_intents). */
import type { SqlRunner } from "../../../relayer/db/client";
import type { OnchainQuote, PreparedIntent } from "./trade-answers";
import type { IntentFields } from "./onchain-intents";

export interface StoredIntent {
  digest: string;
  agentId: string;
  /** The table allows "committed" too; only the onchain lane prepares intents. */
  lane: "onchain";
  chainId: number;
  router: string;
  market: string;
  intent: IntentFields;
  quote: OnchainQuote;
  status: "prepared" | "submitted" | "executed" | "failed";
  txHash: string | null;
  error: string | null;
  createdAt: number;
  expiresAt: number;
}

export async function saveIntent(
  db: SqlRunner,
  a: { agentId: string; chainId: number; prepared: Pick<PreparedIntent, "digest" | "router" | "intent" | "expiresAt">; quote: OnchainQuote; now: number },
): Promise<void> {
  await db.query(
    `INSERT INTO api_trade_intents (digest, agent_id, lane, chain_id, router, market, intent, quote, created_at, expires_at)
     VALUES ($1, $2, 'onchain', $3, $4, $5, $6::text::jsonb, $7::text::jsonb, $8, $9)`,
    [
      a.prepared.digest,
      a.agentId,
      a.chainId,
      a.prepared.router.toLowerCase(),
      a.prepared.intent.market.toLowerCase(),
      JSON.stringify(a.prepared.intent),
      JSON.stringify(a.quote),
      a.now,
      Date.parse(a.prepared.expiresAt),
    ],
  );
}

export async function loadIntent(db: SqlRunner, digest: string): Promise<StoredIntent | null> {
  const rows = await db.query<Record<string, unknown>>(`SELECT * FROM api_trade_intents WHERE digest = $1`, [digest.toLowerCase()]);
  const r = rows[0];
  if (!r) return null;
  const j = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
  return {
    digest: r.digest as string,
    agentId: r.agent_id as string,
    lane: r.lane as StoredIntent["lane"],
    chainId: Number(r.chain_id),
    router: r.router as string,
    market: r.market as string,
    intent: j(r.intent),
    quote: j(r.quote),
    status: r.status as StoredIntent["status"],
    txHash: (r.tx_hash as string | null) ?? null,
    error: (r.error as string | null) ?? null,
    createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at),
  };
}

export async function markIntent(db: SqlRunner, digest: string, status: StoredIntent["status"], txHash: string | null, error: string | null): Promise<void> {
  await db.query(`UPDATE api_trade_intents SET status = $2, tx_hash = COALESCE($3, tx_hash), error = $4 WHERE digest = $1`, [
    digest.toLowerCase(),
    status,
    txHash,
    error,
  ]);
}

/** Claims a prepared intent for submission (only one submit wins). */
export async function claimIntent(db: SqlRunner, digest: string): Promise<boolean> {
  const rows = await db.query(`UPDATE api_trade_intents SET status = 'submitted' WHERE digest = $1 AND status IN ('prepared', 'failed') RETURNING digest`, [
    digest.toLowerCase(),
  ]);
  return rows.length === 1;
}
