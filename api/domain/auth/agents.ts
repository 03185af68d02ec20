/** The agents table: creation (unique names, wallets and emails become spec conflicts) and the reads around it. */
import { randomUUID } from "node:crypto";
import type { SqlRunner } from "../../../relayer/db/client";
import { ApiError } from "../../platform/errors/api-error";
import type { AgentTier, Scope } from "./scopes";
import { ledgerAccountOf } from "./ledger-account";

export type RegistrationPath = "admin" | "demo" | "claim" | "wallet" | "email" | "anonymous";

export interface NewAgent {
  name: string;
  tier: AgentTier;
  scopes: readonly Scope[];
  registrationPath: RegistrationPath;
  walletAddress?: string | null;
  email?: string | null;
  emailVerified?: boolean;
  ownerEmail?: string | null;
  expiresAt?: number | null;
}

export interface AgentRow {
  id: string;
  name: string;
  wallet_address: string | null;
  email: string | null;
  email_verified: boolean;
  owner_email: string | null;
  registration_path: RegistrationPath;
  tier: AgentTier;
  scopes: Scope[] | string;
  ledger_account: string;
  claimed_at: string | number | null;
  expires_at: string | number | null;
  created_at: string | number;
}

/** Reads the scopes column the same way on both drivers. */
export function scopesOf(row: Pick<AgentRow, "scopes">): Scope[] {
  return typeof row.scopes === "string" ? (JSON.parse(row.scopes) as Scope[]) : row.scopes;
}

function isUniqueViolation(err: unknown): err is { code: string; constraint_name?: string; constraint?: string; message: string } {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "23505";
}

/** Inserts an agent; a taken name, wallet or email answers the spec's 409 codes. */
export async function createAgent(db: SqlRunner, a: NewAgent, now: number): Promise<string> {
  const id = randomUUID();
  try {
    await db.query(
      `INSERT INTO api_agents (id, name, name_key, wallet_address, email, email_verified, owner_email, registration_path, tier, scopes, expires_at, created_at, ledger_account)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13)`,
      [
        id,
        a.name,
        a.name.toLowerCase(),
        a.walletAddress?.toLowerCase() ?? null,
        a.email?.toLowerCase() ?? null,
        a.emailVerified ?? false,
        a.ownerEmail?.toLowerCase() ?? null,
        a.registrationPath,
        a.tier,
        JSON.stringify(a.scopes),
        a.expiresAt ?? null,
        now,
        ledgerAccountOf(id, a.walletAddress ?? null),
      ],
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const what = `${err.constraint_name ?? err.constraint ?? ""} ${err.message}`;
    if (what.includes("wallet") || what.includes("ledger_account"))
      throw new ApiError("AGENT_ALREADY_EXISTS", "an agent with this wallet address already exists; recover its key with POST /keys/recover");
    if (what.includes("email")) throw new ApiError("EMAIL_ALREADY_REGISTERED", "this email is already registered");
    throw new ApiError("NAME_TAKEN", `the name ${JSON.stringify(a.name)} is taken`);
  }
  return id;
}

export async function agentById(db: SqlRunner, id: string): Promise<AgentRow | null> {
  const rows = await db.query<AgentRow>(`SELECT * FROM api_agents WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function agentByWallet(db: SqlRunner, wallet: string): Promise<AgentRow | null> {
  const rows = await db.query<AgentRow>(`SELECT * FROM api_agents WHERE wallet_address = $1`, [wallet.toLowerCase()]);
  return rows[0] ?? null;
}

/** Updates an agent's grants (claim, verification, wallet binding). */
export async function setGrants(db: SqlRunner, agentId: string, g: { tier: AgentTier; scopes: readonly Scope[]; clearExpiry?: boolean }): Promise<void> {
  await db.query(`UPDATE api_agents SET tier = $2, scopes = $3::jsonb, expires_at = CASE WHEN $4 THEN NULL ELSE expires_at END WHERE id = $1`, [
    agentId,
    g.tier,
    JSON.stringify(g.scopes),
    g.clearExpiry ?? false,
  ]);
}

/** Binds a wallet to an agent that has none; a wallet another agent holds answers 409 AGENT_ALREADY_EXISTS. */
export async function bindWalletTo(db: SqlRunner, agentId: string, wallet: string): Promise<void> {
  try {
    const rows = await db.query(`UPDATE api_agents SET wallet_address = $2 WHERE id = $1 AND wallet_address IS NULL RETURNING id`, [
      agentId,
      wallet.toLowerCase(),
    ]);
    if (rows.length === 0) throw new ApiError("CONFLICT", "this agent already has a wallet bound", { reason: "WALLET_ALREADY_BOUND" });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError("AGENT_ALREADY_EXISTS", "another agent already holds this wallet address; recover its key with POST /keys/recover");
    throw err;
  }
}

/** Sets the agent's verified email; an email another agent holds answers 409 EMAIL_ALREADY_REGISTERED. */
export async function setVerifiedEmail(db: SqlRunner, agentId: string, email: string): Promise<void> {
  try {
    await db.query(`UPDATE api_agents SET email = $2, email_verified = true WHERE id = $1`, [agentId, email.toLowerCase()]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError("EMAIL_ALREADY_REGISTERED", "another agent already uses this email");
    throw err;
  }
}

export async function agentByEmail(db: SqlRunner, email: string): Promise<AgentRow | null> {
  const rows = await db.query<AgentRow>(`SELECT * FROM api_agents WHERE email = $1`, [email.toLowerCase()]);
  return rows[0] ?? null;
}

/**
 * How many agents this owner email has claimed (at most 3 may be: the spec limits what one email can claim). Only
 * claims count: registrations that merely name the email prove nothing about its owner, and counting them let anyone
 * lock an owner out by naming the address three times. Inside a transaction it first takes a lock on the owner
 * email, so two concurrent claims (or registrations) for one owner cannot both pass the cap.
 */
export async function claimedAgentsOfOwner(db: SqlRunner, ownerEmail: string): Promise<number> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`svc-owner:${ownerEmail.toLowerCase()}`]);
  const [row] = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM api_agents WHERE owner_email = $1 AND claimed_at IS NOT NULL`, [
    ownerEmail.toLowerCase(),
  ]);
  return Number(row.n);
}
