/**
 * API keys: random secrets shown once, stored only as SHA-256 hashes (a 256-bit random secret needs no slow hash:
 * nothing can be guessed from its digest). A raw key looks like `svc_<43 base64url chars>`; its id (`key_<hex>`)
 * is public and names it for rotation.
 */
import { createHash, randomBytes } from "node:crypto";
import type { SqlRunner } from "../../relayer/db/client";
import type { KeyPrincipal, RateTier } from "./principal";
import type { AgentTier, Scope } from "./scopes";

export const KEY_PREFIX = "svc_";

export function hashSecret(raw: string): string {
  return createHash("sha256").update(raw).digest("hex");
}

/** Inserts a fresh key for the agent and returns its id and the raw key (the only time it exists). */
export async function issueKey(db: SqlRunner, agentId: string, now: number): Promise<{ keyId: string; apiKey: string }> {
  const keyId = `key_${randomBytes(8).toString("hex")}`;
  const apiKey = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  await db.query(`INSERT INTO api_keys (id, agent_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)`, [keyId, agentId, hashSecret(apiKey), now]);
  return { keyId, apiKey };
}

/** Revokes every live key of the agent (recovery, demo re-issue). */
export async function revokeAgentKeys(db: SqlRunner, agentId: string, now: number): Promise<void> {
  await db.query(`UPDATE api_keys SET revoked_at = $2 WHERE agent_id = $1 AND revoked_at IS NULL`, [agentId, now]);
}

/** Revokes one live key of the agent; false when the agent has no such live key. */
export async function revokeKey(db: SqlRunner, agentId: string, keyId: string, now: number): Promise<boolean> {
  const rows = await db.query(`UPDATE api_keys SET revoked_at = $3 WHERE id = $1 AND agent_id = $2 AND revoked_at IS NULL RETURNING id`, [keyId, agentId, now]);
  return rows.length > 0;
}

interface PrincipalRow {
  agent_id: string;
  key_id: string;
  name: string;
  tier: AgentTier;
  scopes: Scope[] | string;
  wallet_address: string | null;
  email: string | null;
  email_verified: boolean;
  registration_path: string;
  rate_tier: RateTier;
  rate_overridden: boolean;
  expires_at: string | number | null;
  created_at: string | number;
}

/** The principal of a raw key, or null when the key is unknown or revoked. Expiry is the caller's check. */
export async function findPrincipal(db: SqlRunner, raw: string): Promise<KeyPrincipal | null> {
  if (!raw.startsWith(KEY_PREFIX) || raw.length > 200) return null;
  const rows = await db.query<PrincipalRow>(
    `SELECT a.id AS agent_id, k.id AS key_id, a.name, a.tier, a.scopes, a.wallet_address, a.email, a.email_verified,
            a.registration_path, a.rate_tier, a.rate_overridden, a.expires_at, a.created_at
       FROM api_keys k JOIN api_agents a ON a.id = k.agent_id
      WHERE k.secret_hash = $1 AND k.revoked_at IS NULL`,
    [hashSecret(raw)],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    agentId: r.agent_id,
    keyId: r.key_id,
    name: r.name,
    tier: r.tier,
    scopes: typeof r.scopes === "string" ? (JSON.parse(r.scopes) as Scope[]) : r.scopes,
    walletAddress: r.wallet_address,
    email: r.email,
    emailVerified: r.email_verified,
    registrationPath: r.registration_path,
    rateTier: r.rate_tier,
    rateOverridden: r.rate_overridden,
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    createdAt: Number(r.created_at),
  };
}
