/** The agent identity of GET /me (spec "Agent identity"), built from the agent row and the calling key. */
import { membershipOfAgent } from "../../domain/identity/links";
import type { ServiceContext } from "../../context";
import type { CallContext } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { keyCeilings } from "../../platform/rate-limit/limits";
import { agentById, scopesOf, type AgentRow } from "../../domain/auth/agents";
import { capabilitiesFor } from "../../registry/capabilities";
import { DATA_PLANE_LIMITS } from "../../domain/auth/data-plane-limits";
import { meLinks } from "../../domain/auth/links";
import type { KeyPrincipal } from "../../domain/auth/principal";
import type { FillAllowance } from "../../domain/fills/allowance-source";
import type { Config } from "../../config";
import { creatorStanding, reputationView } from "../../domain/creation/creator-standing";

/** `live` only against Base mainnet through a real RPC (no fork); a local or forked chain is `test`. */
export function environmentOf(config: Config): "live" | "test" {
  return config.CHAIN_ID === 8453 && config.RPC_URL && !config.FORK_URL && !/127\.0\.0\.1|localhost/.test(config.RPC_URL) ? "live" : "test";
}

export async function agentOf(ctx: ServiceContext, p: KeyPrincipal): Promise<AgentRow> {
  const row = await agentById(ctx.db, p.agentId);
  if (!row) throw new ApiError("AGENT_NOT_FOUND", `agent ${p.agentId} no longer exists`);
  return row;
}

/** The fill allowance of an agent with a bound wallet; null without one (spec). */
export async function fillsOf(ctx: ServiceContext, call: CallContext, row: AgentRow): Promise<FillAllowance | null> {
  if (!row.wallet_address) return null;
  return call.services.allowance.allowanceOf({ account: row.ledger_account, signupAt: Number(row.created_at) }, ctx.clock.now());
}

export type ClaimStatus = "not-applicable" | "pending" | "claimed";

export function claimStatusOf(row: AgentRow): ClaimStatus {
  if (row.registration_path !== "claim") return "not-applicable";
  return row.claimed_at === null ? "pending" : "claimed";
}

export async function meView(ctx: ServiceContext, call: CallContext, p: KeyPrincipal) {
  const row = await agentOf(ctx, p);
  const ceilings = keyCeilings(ctx.config, p, ctx.clock.now());
  const scopes = scopesOf(row);
  const principal = { ...p, tier: row.tier, scopes };
  return {
    id: row.id,
    kind: "agent" as const,
    name: row.name,
    walletAddress: row.wallet_address,
    email: row.email,
    emailVerified: row.email_verified,
    tier: row.tier,
    scopes,
    capabilities: capabilitiesFor(call.registry.operations, principal),
    // The wallet is linked to an identity the operator verified (docs/identity.md).
    identityVerified: (await membershipOfAgent(ctx.db, row.id))?.verifiedAt != null,
    chainBindings: row.wallet_address ? [{ chainId: ctx.config.CHAIN_ID }] : [],
    rateLimits: {
      readPerMinute: ceilings.read,
      writePerMinute: ceilings.write,
      dataPerMinute: ceilings.data,
      // Spec: an ordinary key reads its authorization tier here too; only a market-maker allocation differs.
      tier: p.rateTier === "market-maker" ? ("market-maker" as const) : row.tier,
      batchWriteCost: 1 as const,
      unchargedReads: ["GET /me", "initialize", "ping", "tools/list", "notifications/*"],
      // An operator's incident throttle (docs/admin.md) lowers the numbers above, and this says so.
      overridden: p.rateOverridden || ceilings.throttle !== null,
    },
    dataPlane: { ...DATA_PLANE_LIMITS },
    reputation: reputationView(await creatorStanding(ctx.db, row.ledger_account, ctx.clock.now(), call.services.creation.outcomeOf)),
    fills: await fillsOf(ctx, call, row),
    environment: environmentOf(ctx.config),
    version: call.version,
    links: meLinks(call.origin, p.keyId),
    // Ours beyond the spec's required fields.
    keyId: p.keyId,
    ledgerAccount: row.ledger_account,
    registrationPath: row.registration_path,
    ownerEmail: row.owner_email,
    claim: { status: claimStatusOf(row), claimedAt: row.claimed_at === null ? null : new Date(Number(row.claimed_at)).toISOString() },
    expiresAt: row.expires_at === null ? null : new Date(Number(row.expires_at)).toISOString(),
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}
