/** PM purchases by EIP-3009 authorization (migration 240_pm_purchases; docs/pm-purchase.md). */
import type { SqlRunner } from "../../../relayer/db/client";

export type PurchaseStatus = "settling" | "settled" | "credited";

export interface PurchaseRow {
  id: string;
  agentId: string;
  account: string;
  chainId: number;
  asset: string;
  payer: string;
  nonce: string;
  payTo: string;
  amount: bigint;
  pm: bigint;
  fills: number;
  status: PurchaseStatus;
  txHash: string | null;
  journalFloor: number;
  response: Record<string, unknown> | null;
  createdAt: number;
}

export type NewPurchase = Omit<PurchaseRow, "status" | "txHash" | "response">;

const COLUMNS = `id, agent_id, account, chain_id, asset, payer, nonce, pay_to, amount, pm, fills, status, tx_hash, journal_floor, response, created_at`;

function rowOf(r: Record<string, unknown>): PurchaseRow {
  return {
    id: r.id as string,
    agentId: r.agent_id as string,
    account: r.account as string,
    chainId: Number(r.chain_id),
    asset: r.asset as string,
    payer: r.payer as string,
    nonce: r.nonce as string,
    payTo: r.pay_to as string,
    amount: BigInt(r.amount as string),
    pm: BigInt(r.pm as string),
    fills: Number(r.fills),
    status: r.status as PurchaseStatus,
    txHash: (r.tx_hash as string | null) ?? null,
    journalFloor: Number(r.journal_floor),
    response: r.response == null ? null : typeof r.response === "string" ? JSON.parse(r.response) : (r.response as Record<string, unknown>),
    createdAt: Number(r.created_at),
  };
}

/** The purchase that claimed this authorization, if any. */
export async function findPurchase(db: SqlRunner, key: { chainId: number; asset: string; payer: string; nonce: string }): Promise<PurchaseRow | null> {
  const [r] = await db.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM pm_purchases WHERE chain_id = $1 AND asset = $2 AND payer = $3 AND nonce = $4`, [
    key.chainId,
    key.asset,
    key.payer,
    key.nonce,
  ]);
  return r ? rowOf(r) : null;
}

export async function getPurchase(db: SqlRunner, id: string): Promise<PurchaseRow | null> {
  const [r] = await db.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM pm_purchases WHERE id = $1`, [id]);
  return r ? rowOf(r) : null;
}

/** Claims the authorization (status settling); false when another purchase holds it already. */
export async function claimPurchase(db: SqlRunner, p: NewPurchase): Promise<boolean> {
  const claimed = await db.query(
    `INSERT INTO pm_purchases (id, agent_id, account, chain_id, asset, payer, nonce, pay_to, amount, pm, fills, status, journal_floor, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'settling', $12, $13, $13)
     ON CONFLICT (chain_id, asset, payer, nonce) DO NOTHING RETURNING id`,
    [p.id, p.agentId, p.account, p.chainId, p.asset, p.payer, p.nonce, p.payTo, p.amount.toString(), p.pm.toString(), p.fills, p.journalFloor, p.createdAt],
  );
  return claimed.length > 0;
}

/** Forgets a claim whose settlement did not happen on chain: nothing was paid, so nothing is kept. */
export async function dropUnsettled(db: SqlRunner, id: string): Promise<void> {
  await db.query(`DELETE FROM pm_purchases WHERE id = $1 AND status = 'settling'`, [id]);
}

export async function markSettled(db: SqlRunner, id: string, txHash: string, now: number): Promise<void> {
  await db.query(`UPDATE pm_purchases SET status = 'settled', tx_hash = $2, updated_at = $3 WHERE id = $1 AND status = 'settling'`, [id, txHash, now]);
}

export async function markCredited(db: SqlRunner, id: string, response: Record<string, unknown>, now: number): Promise<void> {
  await db.query(`UPDATE pm_purchases SET status = 'credited', response = $2::text::jsonb, updated_at = $3 WHERE id = $1`, [id, JSON.stringify(response), now]);
}

/**
 * Which command types of this purchase the journal already holds. The credit commands carry `purchase: <id>` (the
 * journal keeps a command's JSON verbatim; the engine ignores the field), so a retry after a crash between the journal
 * write and `markCredited` finds them and never credits twice. The search starts at the row's journal floor.
 */
export async function journaledCommands(db: SqlRunner, p: Pick<PurchaseRow, "id" | "journalFloor">): Promise<Set<string>> {
  const rows = await db.query<{ command: unknown }>(`SELECT command FROM journal_entries WHERE seq >= $1 AND command::text LIKE $2`, [
    p.journalFloor,
    `%"purchase":"${p.id}"%`,
  ]);
  const types = new Set<string>();
  for (const r of rows) {
    const c = (typeof r.command === "string" ? JSON.parse(r.command) : r.command) as { type?: string; purchase?: string };
    if (c.purchase === p.id && c.type) types.add(c.type);
  }
  return types;
}
