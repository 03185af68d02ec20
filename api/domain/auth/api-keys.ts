/**
 * API keys: random secrets shown once, stored only as SHA-256 hashes (a 256-bit random secret needs no slow hash:
 * nothing can be guessed from its digest). A raw key looks like `svc_<43 base64url chars>`; its id (`key_<hex>`)
 * is public and names it for rotation.
 */
import { hash, randomBytes } from "node:crypto";
import type { Database, SqlRunner } from "../../../relayer/db/client";
import { ANY_TABLE } from "../../../relayer/db/written-tables";
import { perDatabase } from "../../../relayer/db/per-database";
import type { RateTier } from "../../platform/rate-limit/limits";
import type { KeyPrincipal } from "./principal";
import type { AgentTier, Scope } from "./scopes";

export const KEY_PREFIX = "svc_";

export function hashSecret(raw: string): string {
  return hash("sha256", raw, "hex");
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
  rate_throttle_percent: number | null;
  rate_throttle_reason: string | null;
  rate_throttle_until: string | number | null;
  expires_at: string | number | null;
  created_at: string | number;
}

/**
 * Key -> principal answers kept briefly in process, per database handle: every authenticated call asks, and the
 * answer changes only when a key or an agent row is written. Any local write of `api_keys` or `api_agents` (revoke,
 * rotate, recover, grants, email, wallet, rate tier; after commit when in a transaction) drops them all at once; the
 * TTL bounds how long a write made by another instance sharing the database goes unseen (docs/api-performance.md).
 */
export const DEFAULT_PRINCIPAL_CACHE_TTL_MS = 1_000;
const PRINCIPAL_CACHE_MAX = 10_000;
const PRINCIPAL_TABLES = new Set(["api_keys", "api_agents", ANY_TABLE]);

class PrincipalCache {
  private generation = 0;
  private readonly entries = new Map<string, { generation: number; expiresAt: number; answer: Promise<KeyPrincipal | null> }>();

  constructor(
    db: Database,
    public ttlMs: number,
  ) {
    db.onWrite((tables) => {
      if (tables.some((t) => PRINCIPAL_TABLES.has(t))) this.clear();
    });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  async find(hash: string, load: () => Promise<KeyPrincipal | null>): Promise<KeyPrincipal | null> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(hash);
    if (hit && hit.generation === this.generation && performance.now() < hit.expiresAt) return copy(await hit.answer);
    const generation = this.generation;
    const expiresAt = performance.now() + this.ttlMs;
    const answer = load();
    this.entries.set(hash, { generation, expiresAt, answer });
    if (this.entries.size > PRINCIPAL_CACHE_MAX) this.entries.delete(this.entries.keys().next().value as string);
    answer.catch(() => this.entries.delete(hash));
    return copy(await answer);
  }
}

/** Each caller gets its own principal object (the cached one is never handed out). */
const copy = (p: KeyPrincipal | null): KeyPrincipal | null => (p ? { ...p, scopes: [...p.scopes] } : null);

// The service sets the configured TTL at start (PRINCIPAL_CACHE_TTL_MS, api/config.ts); tools get the default.
const principalCacheOf = perDatabase((db) => new PrincipalCache(db, DEFAULT_PRINCIPAL_CACHE_TTL_MS));

/** Sets the TTL of a database's principal cache (0 turns it off). */
export function configurePrincipalCache(db: SqlRunner, opts: { ttlMs: number }): void {
  const cache = principalCacheOf(db);
  if (cache) {
    cache.ttlMs = opts.ttlMs;
    cache.clear();
  }
}

/** The principal of a raw key, or null when the key is unknown or revoked. Expiry is the caller's check. */
export async function findPrincipal(db: SqlRunner, raw: string): Promise<KeyPrincipal | null> {
  if (!raw.startsWith(KEY_PREFIX) || raw.length > 200) return null;
  const hash = hashSecret(raw);
  const cache = principalCacheOf(db);
  return cache ? cache.find(hash, () => loadPrincipal(db, hash)) : loadPrincipal(db, hash);
}

async function loadPrincipal(db: SqlRunner, hash: string): Promise<KeyPrincipal | null> {
  const rows = await db.query<PrincipalRow>(
    `SELECT a.id AS agent_id, k.id AS key_id, a.name, a.tier, a.scopes, a.wallet_address, a.email, a.email_verified,
            a.registration_path, a.rate_tier, a.rate_overridden,
            a.rate_throttle_percent, a.rate_throttle_reason, a.rate_throttle_until, a.expires_at, a.created_at
       FROM api_keys k JOIN api_agents a ON a.id = k.agent_id
      WHERE k.secret_hash = $1 AND k.revoked_at IS NULL`,
    [hash],
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
    rateThrottle:
      r.rate_throttle_percent === null
        ? null
        : {
            percent: r.rate_throttle_percent,
            reason: r.rate_throttle_reason ?? "",
            until: r.rate_throttle_until === null ? null : Number(r.rate_throttle_until),
          },
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    createdAt: Number(r.created_at),
  };
}
