/** What the identity-linking operations share (docs/identity.md): their access, the acting agent, the answer shapes. */
import { z } from "zod";
import { type Consent, LINKED_ADDRESS_CAP, type Membership } from "../../domain/identity/links";
import { KEY_READ_ACCESS } from "../../registry/types";

/**
 * Any live key of the agent itself, no scope: linking is about the account, like binding a wallet. The consent is
 * "session-proved": the key is the proof, no wallet signature. Writes need an Idempotency-Key.
 */
export const LINKING_READ = { ...KEY_READ_ACCESS, category: "identity" } as const;
export const LINKING_WRITE = { ...LINKING_READ, rateClass: "write", idempotency: "required" } as const;

export { actorOf } from "../../domain/identity/actor";

export const iso = (ms: number) => new Date(ms).toISOString();
export const address = z.string().regex(/^0x[0-9a-f]{40}$/);
export const walletInput = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address (0x + 40 hex digits)")
  .transform((a) => a.toLowerCase());

export const capFields = {
  linkedAddressCount: z.number().int().min(0).describe("addresses linked besides the root's"),
  linkedAddressCap: z.literal(LINKED_ADDRESS_CAP),
};

/** The cap fields of an answer, for an identity with `linkedAddressCount` linked addresses. */
export const capOf = (linkedAddressCount: number) => ({ linkedAddressCount, linkedAddressCap: LINKED_ADDRESS_CAP }) as const;

export const consentSchema = z.object({
  consentId: z.uuid(),
  identityId: z.uuid(),
  agentId: z.uuid(),
  agentName: z.string(),
  walletAddress: address,
  status: z.enum(["pending", "approved", "expired"]),
  createdAt: z.string(),
  expiresAt: z.string().describe("the root must approve before this instant"),
});

export const memberSchema = z.object({
  walletAddress: address,
  agentId: z.uuid(),
  role: z.enum(["root", "linked_agent"]),
  linkedAt: z.string(),
});

export function memberView(m: Membership): z.input<typeof memberSchema> {
  return { walletAddress: m.walletAddress, agentId: m.agentId, role: m.role, linkedAt: iso(m.linkedAt) };
}

export function consentView(c: Consent): z.input<typeof consentSchema> {
  return { ...c, createdAt: iso(c.createdAt), expiresAt: iso(c.expiresAt) };
}
