/**
 * Identity linking (docs/identity.md): one person's agents, each with its wallet, under one identity. The root (the
 * agent that made the identity) makes a multi-use link code that lives 3 minutes; each child agent submits its consent
 * with the code, proved by its own key (no wallet signature); the root approves pending consents, at most 20 per call;
 * the root unlinks members (a member may unlink itself), at most 49 per call; an identity links at most 49 addresses
 * besides the root's. A wallet belongs to one identity at most. The operator marks an identity verified (a human
 * stands behind it); a verified identity casts one human vote per session, whichever of its wallets casts it.
 *
 * Every rule is here; the operations only parse, call and shape the answer. Functions that change state take the
 * transaction they run in.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { SqlRunner } from "../../../relayer/db/client";
import { ApiError } from "../../platform/errors/api-error";

export const LINK_CODE_TTL_MS = 3 * 60_000;
/** How long a consent waits for the root's approval (ours: the spec leaves it open). */
export const CONSENT_TTL_MS = 24 * 3_600_000;
export const APPROVE_MAX = 20;
export const UNLINK_MAX = 49;
/** Linked addresses an identity may hold besides its root's. */
export const LINKED_ADDRESS_CAP = 49;

export type MemberRole = "root" | "linked_agent";

export interface Member {
  walletAddress: string;
  agentId: string;
  ledgerAccount: string;
  role: MemberRole;
  linkedAt: number;
}

export interface Membership extends Member {
  identityId: string;
  verifiedAt: number | null;
  createdAt: number;
}

/** The agent that acts: its id, wallet (null when none is bound) and ledger account. */
export interface Actor {
  agentId: string;
  walletAddress: string | null;
  ledgerAccount: string;
}

interface MemberRow {
  wallet_address: string;
  agent_id: string;
  ledger_account: string;
  role: MemberRole;
  linked_at: string;
  identity_id: string;
  verified_at: string | null;
  created_at: string;
}

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

function memberOf(r: MemberRow): Membership {
  return {
    walletAddress: r.wallet_address,
    agentId: r.agent_id,
    ledgerAccount: r.ledger_account,
    role: r.role,
    linkedAt: Number(r.linked_at),
    identityId: r.identity_id,
    verifiedAt: num(r.verified_at),
    createdAt: Number(r.created_at),
  };
}

const MEMBER_SELECT = `SELECT m.wallet_address, m.agent_id, m.ledger_account, m.role, m.linked_at, m.identity_id, i.verified_at, i.created_at
  FROM identity_members m JOIN identities i ON i.id = m.identity_id`;

export async function membershipOfAgent(db: SqlRunner, agentId: string): Promise<Membership | null> {
  const [row] = await db.query<MemberRow>(`${MEMBER_SELECT} WHERE m.agent_id = $1`, [agentId]);
  return row ? memberOf(row) : null;
}

/** Every member of an identity, the root first, then by linking time. */
export async function membersOf(db: SqlRunner, identityId: string): Promise<Membership[]> {
  const rows = await db.query<MemberRow>(`${MEMBER_SELECT} WHERE m.identity_id = $1 ORDER BY m.role <> 'root', m.linked_at, m.wallet_address`, [identityId]);
  return rows.map(memberOf);
}

function requireWallet(actor: Actor, what: string): string {
  if (!actor.walletAddress) throw new ApiError("WALLET_REQUIRED", `${what} needs a wallet bound to the agent: bind one with POST /agents/me/bind-wallet`);
  return actor.walletAddress.toLowerCase();
}

/** The identity `actor` roots, or FORBIDDEN when it is a member of one it does not root. */
async function rootedBy(db: SqlRunner, actor: Actor): Promise<Membership | null> {
  const m = await membershipOfAgent(db, actor.agentId);
  if (m && m.role !== "root")
    throw new ApiError("FORBIDDEN", "only the identity's root manages its links; this agent is a linked member", { reason: "NOT_IDENTITY_ROOT" });
  return m;
}

async function requireRoot(db: SqlRunner, actor: Actor): Promise<Membership> {
  const m = await rootedBy(db, actor);
  if (!m) throw new ApiError("CONFLICT", "this agent has no identity yet: POST /identity/link-code makes one, with it as root", { reason: "NO_IDENTITY" });
  return m;
}

// ---- link codes --------------------------------------------------------------------------------------------------

const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ0123456789"; // Crockford's base32 without I, L, O, U

/** A code as people type it: upper case, without separators. */
export function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, "");
}

const hashOf = (code: string) =>
  createHash("sha256")
    .update(`svc-link-code:${normalizeCode(code)}`)
    .digest("hex");

function newCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % 32]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export interface LinkCode {
  code: string;
  identityId: string;
  expiresAt: number;
  /** True when this call made the identity (the caller became its root). */
  createdIdentity: boolean;
}

/** A new link code of the caller's identity, making the identity (caller as root) on its first code. */
export async function createLinkCode(tx: SqlRunner, actor: Actor, now: number): Promise<LinkCode> {
  const wallet = requireWallet(actor, "an identity");
  let identity = await rootedBy(tx, actor);
  let createdIdentity = false;
  if (!identity) {
    const id = randomUUID();
    await tx.query(`INSERT INTO identities (id, root_agent_id, created_at) VALUES ($1, $2, $3)`, [id, actor.agentId, now]);
    const taken = await tx.query(
      `INSERT INTO identity_members (wallet_address, identity_id, agent_id, ledger_account, role, linked_at) VALUES ($1, $2, $3, $4, 'root', $5)
       ON CONFLICT DO NOTHING RETURNING wallet_address`,
      [wallet, id, actor.agentId, actor.ledgerAccount, now],
    );
    if (taken.length === 0) throw new ApiError("CONFLICT", "this wallet already belongs to another identity", { reason: "LINKED_ELSEWHERE" });
    identity = (await membershipOfAgent(tx, actor.agentId))!;
    createdIdentity = true;
  }
  // Expired codes go as new ones are made: a code is a bearer secret for its 3 minutes only.
  await tx.query(`DELETE FROM identity_link_codes WHERE expires_at <= $1`, [now]);
  const code = newCode();
  const expiresAt = now + LINK_CODE_TTL_MS;
  await tx.query(`INSERT INTO identity_link_codes (code_hash, identity_id, expires_at, created_at) VALUES ($1, $2, $3, $4)`, [
    hashOf(code),
    identity.identityId,
    expiresAt,
    now,
  ]);
  return { code, identityId: identity.identityId, expiresAt, createdIdentity };
}

// ---- consents ----------------------------------------------------------------------------------------------------

export interface Consent {
  consentId: string;
  identityId: string;
  agentId: string;
  agentName: string;
  walletAddress: string;
  status: "pending" | "approved" | "expired";
  createdAt: number;
  expiresAt: number;
}

interface ConsentRow {
  id: string;
  identity_id: string;
  agent_id: string;
  name: string;
  wallet_address: string;
  status: Consent["status"];
  created_at: string;
  expires_at: string;
}

const consentOf = (r: ConsentRow): Consent => ({
  consentId: r.id,
  identityId: r.identity_id,
  agentId: r.agent_id,
  agentName: r.name,
  walletAddress: r.wallet_address,
  status: r.status,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
});

const CONSENT_SELECT = `SELECT c.id, c.identity_id, c.agent_id, a.name, c.wallet_address, c.status, c.created_at, c.expires_at
  FROM identity_link_consents c JOIN api_agents a ON a.id = c.agent_id`;

/** The child's consent to join the identity whose live code it holds; it replaces the child's earlier pending one. */
export async function submitConsent(tx: SqlRunner, child: Actor, code: string, now: number): Promise<Consent> {
  const wallet = requireWallet(child, "linking");
  const [live] = await tx.query<{ identity_id: string }>(`SELECT identity_id FROM identity_link_codes WHERE code_hash = $1 AND expires_at > $2`, [
    hashOf(code),
    now,
  ]);
  // Unknown and expired look alike: a code lives 3 minutes, and saying which would help whoever guesses codes.
  if (!live) throw new ApiError("EXPIRED_TOKEN", "no live link code matches: codes last 3 minutes; ask the identity's root for a new one");
  const mine = await membershipOfAgent(tx, child.agentId);
  if (mine?.identityId === live.identity_id)
    throw new ApiError("CONFLICT", "this agent is already a member of that identity", { reason: mine.role === "root" ? "SELF_LINK" : "ALREADY_LINKED" });
  if (mine)
    throw new ApiError("CONFLICT", "this agent belongs to another identity: unlink it there first (POST /identity/unlink)", { reason: "LINKED_ELSEWHERE" });
  await tx.query(`UPDATE identity_link_consents SET status = 'expired', decided_at = $2 WHERE agent_id = $1 AND status = 'pending'`, [child.agentId, now]);
  const id = randomUUID();
  await tx.query(
    `INSERT INTO identity_link_consents (id, identity_id, agent_id, wallet_address, status, created_at, expires_at) VALUES ($1, $2, $3, $4, 'pending', $5, $6)`,
    [id, live.identity_id, child.agentId, wallet, now, now + CONSENT_TTL_MS],
  );
  const [row] = await tx.query<ConsentRow>(`${CONSENT_SELECT} WHERE c.id = $1`, [id]);
  return consentOf(row!);
}

/** The agent's own consent still waiting for a root, if any. */
export async function pendingConsentOfAgent(db: SqlRunner, agentId: string, now: number): Promise<Consent | null> {
  const [row] = await db.query<ConsentRow>(`${CONSENT_SELECT} WHERE c.agent_id = $1 AND c.status = 'pending' AND c.expires_at > $2`, [agentId, now]);
  return row ? consentOf(row) : null;
}

/** The root's pending consents, oldest first. */
export async function pendingConsents(db: SqlRunner, actor: Actor, now: number): Promise<{ identity: Membership; consents: Consent[] }> {
  const identity = await requireRoot(db, actor);
  const rows = await db.query<ConsentRow>(`${CONSENT_SELECT} WHERE c.identity_id = $1 AND c.status = 'pending' AND c.expires_at > $2 ORDER BY c.n`, [
    identity.identityId,
    now,
  ]);
  return { identity, consents: rows.map(consentOf) };
}

export async function linkedCount(db: SqlRunner, identityId: string): Promise<number> {
  const [row] = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM identity_members WHERE identity_id = $1 AND role <> 'root'`, [identityId]);
  return Number(row!.n);
}

export type ApprovalStatus = "approved" | "not_found" | "expired" | "cap_reached" | "linked_elsewhere";

/**
 * Approves consents of the root's identity, in the order given; each one's fate is its own (one that cannot be
 * approved changes nothing and the others go on). The identity's row is locked, so two approvals cannot pass the cap
 * together.
 */
export async function approveConsents(
  tx: SqlRunner,
  actor: Actor,
  consentIds: readonly string[],
  now: number,
): Promise<{ identity: Membership; results: { consentId: string; status: ApprovalStatus; walletAddress: string | null; agentId: string | null }[] }> {
  const identity = await requireRoot(tx, actor);
  await tx.query(`SELECT id FROM identities WHERE id = $1 FOR UPDATE`, [identity.identityId]);
  let linked = await linkedCount(tx, identity.identityId);
  const results = [];
  for (const consentId of consentIds) {
    const [row] = await tx.query<ConsentRow>(`${CONSENT_SELECT} WHERE c.id = $1 AND c.identity_id = $2 AND c.status = 'pending'`, [
      consentId,
      identity.identityId,
    ]);
    if (!row) {
      results.push({ consentId, status: "not_found" as const, walletAddress: null, agentId: null });
      continue;
    }
    const c = consentOf(row);
    const fate = (status: ApprovalStatus) => results.push({ consentId, status, walletAddress: c.walletAddress, agentId: c.agentId });
    if (c.expiresAt <= now) {
      await tx.query(`UPDATE identity_link_consents SET status = 'expired', decided_at = $2 WHERE id = $1`, [consentId, now]);
      fate("expired");
      continue;
    }
    if (linked >= LINKED_ADDRESS_CAP) {
      fate("cap_reached");
      continue;
    }
    const [agent] = await tx.query<{ ledger_account: string }>(`SELECT ledger_account FROM api_agents WHERE id = $1`, [c.agentId]);
    const joined = await tx.query(
      `INSERT INTO identity_members (wallet_address, identity_id, agent_id, ledger_account, role, linked_at) VALUES ($1, $2, $3, $4, 'linked_agent', $5)
       ON CONFLICT DO NOTHING RETURNING wallet_address`,
      [c.walletAddress, identity.identityId, c.agentId, agent!.ledger_account, now],
    );
    if (joined.length === 0) {
      // Since consenting, the child became a member elsewhere (approved by another root, or made its own identity).
      await tx.query(`UPDATE identity_link_consents SET status = 'expired', decided_at = $2 WHERE id = $1`, [consentId, now]);
      fate("linked_elsewhere");
      continue;
    }
    await tx.query(`UPDATE identity_link_consents SET status = 'approved', decided_at = $2 WHERE id = $1`, [consentId, now]);
    linked++;
    fate("approved");
  }
  return { identity, results };
}

export type UnlinkStatus = "unlinked" | "not_a_member" | "is_root" | "not_permitted";

/** Unlinks wallets from the caller's identity: the root any member but itself, a member only itself. */
export async function unlinkWallets(
  tx: SqlRunner,
  actor: Actor,
  wallets: readonly string[],
): Promise<{ identityId: string; results: { walletAddress: string; status: UnlinkStatus }[] }> {
  const me = await membershipOfAgent(tx, actor.agentId);
  if (!me) throw new ApiError("CONFLICT", "this agent belongs to no identity", { reason: "NO_IDENTITY" });
  const results = [];
  for (const raw of wallets) {
    const walletAddress = raw.toLowerCase();
    const [row] = await tx.query<{ role: MemberRole }>(`SELECT role FROM identity_members WHERE wallet_address = $1 AND identity_id = $2`, [
      walletAddress,
      me.identityId,
    ]);
    let status: UnlinkStatus;
    if (!row) status = "not_a_member";
    else if (row.role === "root") status = "is_root";
    else if (me.role !== "root" && walletAddress !== me.walletAddress) status = "not_permitted";
    else {
      await tx.query(`DELETE FROM identity_members WHERE wallet_address = $1`, [walletAddress]);
      status = "unlinked";
    }
    results.push({ walletAddress, status });
  }
  return { identityId: me.identityId, results };
}

// ---- verification (the operator) and the ballot rule -------------------------------------------------------------

/** Marks the identity whose member `wallet` is as verified (or not); false when the wallet is in no identity. */
export async function setIdentityVerified(db: SqlRunner, wallet: string, verified: boolean, now: number): Promise<string | null> {
  const rows = await db.query<{ id: string }>(
    `UPDATE identities SET verified_at = $2 WHERE id = (SELECT identity_id FROM identity_members WHERE wallet_address = $1) RETURNING id`,
    [wallet.toLowerCase(), verified ? now : null],
  );
  return rows[0]?.id ?? null;
}

/**
 * The ledger accounts of the other members of `voter`'s identity, when that identity is verified: one of them holding
 * a ballot in the session means the identity has voted. Empty for an agent in no identity or an unverified one.
 */
export async function fellowVoterAccounts(db: SqlRunner, voterAgentId: string): Promise<{ identityId: string; accounts: Set<string> } | null> {
  const me = await membershipOfAgent(db, voterAgentId);
  if (!me || me.verifiedAt === null) return null;
  const rows = await db.query<{ ledger_account: string }>(`SELECT ledger_account FROM identity_members WHERE identity_id = $1 AND agent_id <> $2`, [
    me.identityId,
    voterAgentId,
  ]);
  return { identityId: me.identityId, accounts: new Set(rows.map((r) => r.ledger_account.toLowerCase())) };
}
