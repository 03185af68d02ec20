/**
 * Who is on a stream: the API key (Authorization: Bearer, X-API-Key, or the WebSocket `auth` message) checked like any
 * read operation (live key, not expired), and the agent's ledger account, whose execution reports it may read.
 */
import type { ServiceContext } from "../../context";
import { authenticate } from "../../registry/access";
import { ledgerAccountFor } from "../../domain/auth/ledger-account";
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
