/**
 * Link tokens mailed to people: the owner's claim link (24 h) and the email verification link (24 h). The raw token
 * (`clm_...` / `vfy_...`) exists only in the mail; the table keeps its SHA-256. A token works once.
 */
import { randomBytes } from "node:crypto";
import type { SqlRunner } from "../../../relayer/db/client";
import { ApiError } from "../../platform/errors/api-error";
import { hashSecret } from "./api-keys";

export type LinkKind = "claim" | "verify-email";
export const LINK_TTL_MS = 24 * 60 * 60 * 1000;
const PREFIX: Record<LinkKind, string> = { claim: "clm_", "verify-email": "vfy_" };

export interface LinkRow {
  token_hash: string;
  agent_id: string;
  kind: LinkKind;
  email: string;
  created_at: string | number;
  expires_at: string | number;
  used_at: string | number | null;
}

/** Makes a new link and retires the agent's earlier unused links of the same kind (a resend replaces them). */
export async function createLink(db: SqlRunner, agentId: string, kind: LinkKind, email: string, now: number): Promise<{ token: string; expiresAt: number }> {
  const token = `${PREFIX[kind]}${randomBytes(32).toString("base64url")}`;
  await db.query(`UPDATE api_claim_links SET expires_at = $3 WHERE agent_id = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3`, [agentId, kind, now]);
  await db.query(`INSERT INTO api_claim_links (token_hash, agent_id, kind, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
    hashSecret(token),
    agentId,
    kind,
    email.toLowerCase(),
    now,
    now + LINK_TTL_MS,
  ]);
  return { token, expiresAt: now + LINK_TTL_MS };
}

/** The link of a token, whatever its state, or undefined (unknown, or of another kind). */
export async function linkOf(db: SqlRunner, token: string, kind: LinkKind): Promise<LinkRow | undefined> {
  const [row] = await db.query<LinkRow>(`SELECT * FROM api_claim_links WHERE token_hash = $1 AND kind = $2`, [hashSecret(token), kind]);
  return row;
}

/** The live link of a token, or 410 EXPIRED_TOKEN (unknown, expired, used, or of another kind). */
export async function liveLink(db: SqlRunner, token: string, kind: LinkKind, now: number): Promise<LinkRow> {
  const row = await linkOf(db, token, kind);
  if (!row) throw new ApiError("EXPIRED_TOKEN", `this ${kind} link is unknown or no longer valid; ask for a new one`, { reason: "UNKNOWN" });
  if (row.used_at !== null) throw new ApiError("EXPIRED_TOKEN", `this ${kind} link was already used`, { reason: "USED" });
  if (Number(row.expires_at) <= now)
    throw new ApiError("EXPIRED_TOKEN", `this ${kind} link expired at ${new Date(Number(row.expires_at)).toISOString()}; ask for a new one`, {
      reason: "EXPIRED",
    });
  return row;
}

/** Marks the link used; false when another request used it first. */
export async function useLink(db: SqlRunner, tokenHash: string, now: number): Promise<boolean> {
  const rows = await db.query(`UPDATE api_claim_links SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL RETURNING token_hash`, [tokenHash, now]);
  return rows.length > 0;
}
