/**
 * What a new user writes against the printed base URL: JSON calls with a bearer key and an Idempotency-Key on writes,
 * and registration on the claimed-agent path with a real EIP-191 wallet signature (docs/auth.md).
 */
import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Reply {
  status: number;
  headers: Headers;
  contentType: string;
  json: Json;
}

export interface CallOptions {
  key?: string;
  /** Idempotency-Key of a write: a fresh UUID unless given; null sends none. */
  idem?: string | null;
}

/** One JSON call; `url` is absolute or a path under the API base. */
export async function call(base: string, method: string, url: string, body?: unknown, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (method !== "GET" && opts.idem !== null) headers["idempotency-key"] = opts.idem ?? randomUUID();
  const res = await fetch(/^https?:/.test(url) ? url : `${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: Json = {};
  try {
    json = text ? (JSON.parse(text) as Json) : {};
  } catch {
    json = { unparsed: text };
  }
  return { status: res.status, headers: res.headers, contentType: res.headers.get("content-type") ?? "", json };
}

/** Compact "METHOD url -> status body" for assertion messages (what failed, precisely). */
export function show(method: string, url: string, r: Reply): string {
  return `${method} ${url} -> ${r.status} ${JSON.stringify(r.json).slice(0, 800)}`;
}

export interface WalletProof {
  walletAddress: string;
  walletSignature: `0x${string}`;
  signedMessage: string;
}

/** A fresh nonce from POST /api/auth/nonce (host root, no key, no Idempotency-Key). */
export async function freshNonce(origin: string): Promise<string> {
  const r = await call(origin, "POST", "/api/auth/nonce", undefined, { idem: null });
  if (r.status !== 200 || typeof r.json.nonce !== "string") throw new Error(show("POST", "/api/auth/nonce", r));
  return r.json.nonce as string;
}

/** The svc-register proof: EIP-191 personal_sign over `svc-register:{walletLowercase}:{nonce}`. */
export async function registerProof(account: PrivateKeyAccount, nonce: string): Promise<WalletProof> {
  const signedMessage = `svc-register:${account.address.toLowerCase()}:${nonce}`;
  return { walletAddress: account.address, walletSignature: await account.signMessage({ message: signedMessage }), signedMessage };
}

export function freshAccount(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}
