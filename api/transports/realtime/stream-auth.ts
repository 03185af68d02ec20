/**
 * Who is on a stream: the API key (Authorization: Bearer, X-API-Key, or the WebSocket `auth` message) checked like any
 * read operation (live key, not expired), and the agent's ledger account, whose execution reports it may read.
 */
import type { ServiceContext } from "../../context";
import { ANY_TABLE, perDatabase } from "../../../relayer/db/written-tables";
import { authenticate } from "../../domain/auth/authenticate";
import { ledgerAccountOf } from "../../domain/auth/ledger-account";
import type { KeyPrincipal } from "../../domain/auth/principal";
import type { AnyOperation } from "../../registry/types";

/** The permission a stream needs: any live key of any tier, no scope (an agent reads only its own reports). */
const STREAM_PERMISSION = {
  id: "streamEvents",
  method: "GET",
  path: "/events/stream",
  permission: "api-key-read",
  tier: "read-only",
  scopes: [],
} as unknown as AnyOperation;

export interface StreamIdentity {
  principal: KeyPrincipal;
  account: string;
}

/** Throws ApiError AUTH_REQUIRED (401) for a missing, unknown, revoked or expired key. */
export async function streamIdentity(ctx: ServiceContext, rawKey: string | null): Promise<StreamIdentity> {
  const principal = (await authenticate(ctx.db, STREAM_PERMISSION, rawKey, ctx.clock.now()))!;
  return { principal, account: await ledgerAccountFor(ctx, principal) };
}

/**
 * Agent -> ledger account, kept in memory per database handle (every order asks): any local write of `api_agents`
 * drops them all (after commit), like the principal cache, whose TTL bounds another instance's write too.
 */
const LEDGER_CACHE_TTL_MS = 1_000;
const LEDGER_CACHE_MAX = 10_000;
const ledgerCacheOf = perDatabase((db) => {
  const entries = new Map<string, { expiresAt: number; account: Promise<string> }>();
  db.onWrite((tables) => {
    if (tables.includes("api_agents") || tables.includes(ANY_TABLE)) entries.clear();
  });
  return entries;
});

/** The ledger account of an authenticated agent (api_agents.ledger_account, else derived). */
export async function ledgerAccountFor(ctx: ServiceContext, principal: KeyPrincipal): Promise<string> {
  const load = async () => {
    const [row] = await ctx.db.query<{ ledger_account: string | null }>(`SELECT ledger_account FROM api_agents WHERE id = $1`, [principal.agentId]);
    return (row?.ledger_account ?? ledgerAccountOf(principal.agentId, principal.walletAddress)).toLowerCase();
  };
  const cache = ledgerCacheOf(ctx.db);
  if (!cache) return load();
  const key = `${principal.agentId}/${principal.walletAddress ?? ""}`;
  const hit = cache.get(key);
  if (hit && performance.now() < hit.expiresAt) return hit.account;
  const account = load();
  cache.set(key, { expiresAt: performance.now() + LEDGER_CACHE_TTL_MS, account });
  if (cache.size > LEDGER_CACHE_MAX) cache.delete(cache.keys().next().value as string);
  account.catch(() => cache.delete(key));
  return account;
}
