/**
 * The ledger account of an agent (engine interface "Accounts"): its wallet when it registered with one, else
 * `0x` + the last 20 bytes of keccak256("svc-agent:" + agentId). Chosen once at creation and never moved.
 */
import { keccak256, toBytes } from "viem";
import { ANY_TABLE } from "../../../relayer/db/written-tables";
import { perDatabase } from "../../../relayer/db/per-database";
import type { ServiceContext } from "../../context";
import type { KeyPrincipal } from "./principal";

export function derivedLedgerAccount(agentId: string): string {
  return `0x${keccak256(toBytes(`svc-agent:${agentId}`)).slice(-40)}`;
}

export function ledgerAccountOf(agentId: string, walletAddress: string | null): string {
  return walletAddress ? walletAddress.toLowerCase() : derivedLedgerAccount(agentId);
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
