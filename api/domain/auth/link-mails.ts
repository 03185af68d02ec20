/** The mails that carry link tokens: the owner's claim link and the email verification link. */
import type { MailMessage } from "../../platform/mail/mailer";
import { apiBase } from "./links";

export function claimMail(origin: string, to: string, agent: { name: string; walletAddress: string | null }, token: string, expiresAt: number): MailMessage {
  const base = apiBase(origin);
  return {
    to,
    subject: `Claim your agent "${agent.name}"`,
    text: [
      `An agent named "${agent.name}"${agent.walletAddress ? ` (wallet ${agent.walletAddress})` : ""} registered with ${to} as its accountable owner.`,
      "Claiming it unlocks trading, market creation and resolution for its key. If you did not expect this, ignore this mail.",
      "",
      `Preview: ${base}/agents/claim?token=${token}`,
      "Claim:",
      `  curl -X POST ${base}/agents/claim -H 'content-type: application/json' -H "Idempotency-Key: $(uuidgen)" -d '{"token":"${token}"}'`,
      "",
      `The link works once and expires at ${new Date(expiresAt).toISOString()}.`,
    ].join("\n"),
    secrets: [token],
  };
}

export function verifyEmailMail(origin: string, to: string, agentName: string, token: string, expiresAt: number): MailMessage {
  const base = apiBase(origin);
  return {
    to,
    subject: `Verify the email of agent "${agentName}"`,
    text: [
      `The agent "${agentName}" asked to use ${to} as its email. If you did not expect this, ignore this mail.`,
      "Verify:",
      `  curl -X POST ${base}/agents/verify-email -H 'content-type: application/json' -H "Idempotency-Key: $(uuidgen)" -d '{"token":"${token}"}'`,
      "",
      `token: ${token}`,
      `The link works once and expires at ${new Date(expiresAt).toISOString()}.`,
    ].join("\n"),
    secrets: [token],
  };
}
