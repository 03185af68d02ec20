/**
 * Wallet-proof nonces (POST /api/auth/nonce): 128 random bits, single-use, valid 300 s, kept in `api_nonces`.
 * `signedNonce` is the HMAC-SHA256 of the nonce under a server secret (table `api_secrets`, made on first use), so a
 * nonce can be recognised as ours without a database read (e.g. by another instance sharing the secret).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { SqlRunner } from "../../../../relayer/db/client";

export const NONCE_TTL_MS = 300_000;
const SECRET_NAME = "wallet-proof-nonce-hmac";

const secretCache = new WeakMap<SqlRunner, string>();

/** The HMAC secret, created once per database (two racing instances agree through ON CONFLICT). */
export async function nonceSecret(db: SqlRunner, now: number): Promise<string> {
  const cached = secretCache.get(db);
  if (cached) return cached;
  await db.query(`INSERT INTO api_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`, [
    SECRET_NAME,
    randomBytes(32).toString("hex"),
    now,
  ]);
  const [row] = await db.query<{ value: string }>(`SELECT value FROM api_secrets WHERE name = $1`, [SECRET_NAME]);
  secretCache.set(db, row.value);
  return row.value;
}

export function signNonce(secret: string, nonce: string): string {
  return createHmac("sha256", secret).update(`svc-nonce:${nonce}`).digest("hex");
}

export function nonceSignatureValid(secret: string, nonce: string, signedNonce: string): boolean {
  const want = Buffer.from(signNonce(secret, nonce), "hex");
  const got = Buffer.from(/^[0-9a-f]{64}$/.test(signedNonce) ? signedNonce : "", "hex");
  return got.length === want.length && timingSafeEqual(got, want);
}

export interface IssuedNonce {
  nonce: string;
  signedNonce: string;
  expiresAt: number;
}

export async function issueNonce(db: SqlRunner, now: number): Promise<IssuedNonce> {
  const secret = await nonceSecret(db, now);
  const nonce = randomBytes(16).toString("hex");
  // Expired nonces are useless: drop them as new ones are made (indexed on expires_at).
  await db.query(`DELETE FROM api_nonces WHERE expires_at < $1`, [now - NONCE_TTL_MS]);
  await db.query(`INSERT INTO api_nonces (nonce, created_at, expires_at) VALUES ($1, $2, $3)`, [nonce, now, now + NONCE_TTL_MS]);
  return { nonce, signedNonce: signNonce(secret, nonce), expiresAt: now + NONCE_TTL_MS };
}

/** Spends a nonce atomically: true once for a live, unused nonce of ours; false when unknown, expired or used. */
export async function consumeNonce(db: SqlRunner, nonce: string, usedFor: string, now: number): Promise<boolean> {
  const rows = await db.query(`UPDATE api_nonces SET used_at = $2, used_for = $3 WHERE nonce = $1 AND used_at IS NULL AND expires_at > $2 RETURNING nonce`, [
    nonce,
    now,
    usedFor,
  ]);
  return rows.length > 0;
}
