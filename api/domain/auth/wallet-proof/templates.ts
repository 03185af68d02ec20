/**
 * The EIP-191 message templates of wallet proofs (spec "Wallet proofs"; docs/auth.md). Each message names what it
 * authorises, the lower-case wallet and a single-use nonce from POST /api/auth/nonce, so a signature for one purpose
 * can never be replayed for another. The bind-wallet message also names the agent id, so it binds to one agent.
 */
export const PROOF_KINDS = ["register", "recovery", "bind-wallet"] as const;
export type ProofKind = (typeof PROOF_KINDS)[number];

export const PROOF_TEMPLATES: Record<ProofKind, { prefix: string; template: string; discoveryKind: string; usedBy: string }> = {
  register: { prefix: "svc-register", template: "svc-register:{walletAddressLowercase}:{nonce}", discoveryKind: "agent-register", usedBy: "POST /register" },
  recovery: {
    prefix: "svc-api-key-recovery",
    template: "svc-api-key-recovery:{walletLowercase}:{nonce}",
    discoveryKind: "agent-key-recovery",
    usedBy: "POST /keys/recover",
  },
  "bind-wallet": {
    prefix: "svc-bind-wallet",
    template: "svc-bind-wallet:{agentId}:{walletAddressLowercase}:{nonce}",
    discoveryKind: "agent-bind-wallet",
    usedBy: "POST /agents/me/bind-wallet",
  },
};

/** Nonces are 32 lower-case hex characters (128 random bits). */
export const NONCE_PATTERN = /^[0-9a-f]{32}$/;

/** The exact message a wallet signs for `kind`. */
export function proofMessage(kind: ProofKind, wallet: string, nonce: string, agentId?: string): string {
  const w = wallet.toLowerCase();
  if (kind === "bind-wallet") {
    if (!agentId) throw new Error("proofMessage: bind-wallet needs the agent id");
    return `svc-bind-wallet:${agentId}:${w}:${nonce}`;
  }
  return `${PROOF_TEMPLATES[kind].prefix}:${w}:${nonce}`;
}

export interface ParsedProofMessage {
  wallet: string;
  nonce: string;
  agentId?: string;
}

/** Reads a signed message of `kind`; null when it does not follow the template exactly. */
export function parseProofMessage(kind: ProofKind, message: string): ParsedProofMessage | null {
  const parts = message.split(":");
  const prefix = PROOF_TEMPLATES[kind].prefix;
  if (parts[0] !== prefix) return null;
  const [agentId, wallet, nonce] = kind === "bind-wallet" ? parts.slice(1) : [undefined, ...parts.slice(1)];
  if (parts.length !== (kind === "bind-wallet" ? 4 : 3)) return null;
  if (!wallet || !/^0x[0-9a-f]{40}$/.test(wallet)) return null;
  if (!nonce || !NONCE_PATTERN.test(nonce)) return null;
  if (kind === "bind-wallet" && !/^[0-9a-f-]{36}$/.test(agentId ?? "")) return null;
  return { wallet, nonce, ...(agentId ? { agentId } : {}) };
}
