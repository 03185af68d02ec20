/**
 * The change feed's signing key: one Ed25519 key pair per deployment, generated on first use and kept in api_secrets
 * (PKCS#8 PEM), so every instance signs with the same key and the published public key stays valid across restarts.
 * The signature is detached, over the exact bytes of the feed, sent as
 *   X-Feed-Signature: keyid="<kid>", alg="ed25519", sig="<base64 signature>"
 * where kid is the first 16 hex digits of SHA-256 of the raw 32-byte public key.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import type { SqlRunner } from "../../../relayer/db/client";

export const FEED_KEY_SECRET = "changelog-ed25519";
export const SIGNATURE_HEADER = "X-Feed-Signature" as const;

export interface FeedKey {
  keyId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const loaded = new WeakMap<SqlRunner, Promise<FeedKey>>();

function keyOf(pem: string): FeedKey {
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  return { keyId: keyIdOf(publicKey), privateKey, publicKey };
}

/** First 16 hex digits of SHA-256 over the raw public key (the last 32 bytes of its SPKI DER). */
export function keyIdOf(publicKey: KeyObject): string {
  const raw = publicKey.export({ type: "spki", format: "der" }).subarray(-32);
  return createHash("sha256").update(raw).digest("hex").slice(0, 16);
}

/** The deployment's key: read from api_secrets, or generated and stored (the first writer wins a race). */
export function feedKey(db: SqlRunner, now: number): Promise<FeedKey> {
  let p = loaded.get(db);
  if (!p) {
    p = (async () => {
      const { privateKey } = generateKeyPairSync("ed25519");
      const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
      await db.query(`INSERT INTO api_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`, [FEED_KEY_SECRET, pem, now]);
      const rows = await db.query<{ value: string }>(`SELECT value FROM api_secrets WHERE name = $1`, [FEED_KEY_SECRET]);
      return keyOf(rows[0].value);
    })();
    p.catch(() => loaded.delete(db));
    loaded.set(db, p);
  }
  return p;
}

export function signatureHeader(key: FeedKey, bytes: Uint8Array): string {
  const sig = sign(null, bytes, key.privateKey).toString("base64");
  return `keyid="${key.keyId}", alg="ed25519", sig="${sig}"`;
}

/** Parses an X-Feed-Signature value; null when malformed. */
export function parseSignatureHeader(value: string): { keyId: string; alg: string; sig: Buffer } | null {
  const fields = Object.fromEntries([...value.matchAll(/([a-z]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  if (!fields.keyid || !fields.alg || !fields.sig) return null;
  return { keyId: fields.keyid, alg: fields.alg, sig: Buffer.from(fields.sig, "base64") };
}

/** What a client does: checks the detached signature of the feed bytes against the published PEM public key. */
export function verifyFeedSignature(bytes: Uint8Array, header: string, publicKeyPem: string): boolean {
  const parsed = parseSignatureHeader(header);
  if (parsed?.alg !== "ed25519") return false;
  const publicKey = createPublicKey(publicKeyPem);
  if (keyIdOf(publicKey) !== parsed.keyId) return false;
  return verify(null, bytes, publicKey, parsed.sig);
}
