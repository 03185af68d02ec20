/**
 * How often claim links may be mailed (security review: one agent key sent 30 claim mails to one address in a row).
 * Every claim mail is one row of api_claim_links (kind `claim`, its recipient, its creation instant), so the links
 * table is the mail log the throttle counts:
 *   - per agent, one claim mail per COOLDOWN_MS (a resend sooner is refused);
 *   - per recipient, at most PER_RECIPIENT mails in any RECIPIENT_WINDOW_MS, whichever agents asked (registrations
 *     naming the address included), so a stranger cannot flood a mailbox by registering or resending.
 * A refusal is 429 RATE_LIMITED with Retry-After (seconds until the next mail is allowed) and the RateLimit headers.
 */
import type { SqlRunner } from "../../../relayer/db/client";
import { ApiError } from "../../platform/errors/api-error";

export const CLAIM_MAIL_COOLDOWN_MS = 60_000;
export const CLAIM_MAILS_PER_RECIPIENT = 5;
export const CLAIM_MAIL_RECIPIENT_WINDOW_MS = 60 * 60 * 1000;

function refuse(detail: string, limit: number, retryAtMs: number, now: number, extra: Record<string, unknown>): ApiError {
  const retryAfter = Math.max(1, Math.ceil((retryAtMs - now) / 1000));
  return new ApiError(
    "RATE_LIMITED",
    detail,
    { retryAfter, ...extra },
    {
      "Retry-After": String(retryAfter),
      "RateLimit-Limit": String(limit),
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": String(Math.ceil(retryAtMs / 1000)),
    },
  );
}

/** Refuses (429) when a claim mail to `recipient` for `agentId` (null: a new agent) would break either limit now. */
export async function checkClaimMailAllowed(db: SqlRunner, recipient: string, agentId: string | null, now: number): Promise<void> {
  const to = recipient.toLowerCase();
  if (agentId !== null) {
    const [last] = await db.query<{ at: string | number | null }>(`SELECT max(created_at) AS at FROM api_claim_links WHERE agent_id = $1 AND kind = 'claim'`, [
      agentId,
    ]);
    const lastAt = last?.at === null || last?.at === undefined ? null : Number(last.at);
    if (lastAt !== null && now - lastAt < CLAIM_MAIL_COOLDOWN_MS) {
      throw refuse(
        `a claim link for this agent was mailed ${Math.floor((now - lastAt) / 1000)} s ago; one per ${CLAIM_MAIL_COOLDOWN_MS / 1000} s`,
        1,
        lastAt + CLAIM_MAIL_COOLDOWN_MS,
        now,
        { reason: "CLAIM_MAIL_COOLDOWN" },
      );
    }
  }
  const recent = await db.query<{ created_at: string | number }>(
    `SELECT created_at FROM api_claim_links WHERE email = $1 AND kind = 'claim' AND created_at > $2 ORDER BY created_at DESC LIMIT $3`,
    [to, now - CLAIM_MAIL_RECIPIENT_WINDOW_MS, CLAIM_MAILS_PER_RECIPIENT],
  );
  if (recent.length >= CLAIM_MAILS_PER_RECIPIENT) {
    // The oldest of the last PER_RECIPIENT mails ages out of the window first.
    const oldest = Number(recent[recent.length - 1]!.created_at);
    throw refuse(
      `this address got ${CLAIM_MAILS_PER_RECIPIENT} claim mails within the last hour; no more for now`,
      CLAIM_MAILS_PER_RECIPIENT,
      oldest + CLAIM_MAIL_RECIPIENT_WINDOW_MS,
      now,
      { reason: "CLAIM_MAIL_RECIPIENT_LIMIT" },
    );
  }
}
