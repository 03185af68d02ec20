/**
 * Standard Webhooks signing with the `standardwebhooks` library: secrets are `whsec_` + base64 of 32 random bytes;
 * a delivery carries one `v1,<sig>` per live secret, space-separated, so receivers holding either the old or the new
 * secret verify it during a rotation's grace period.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The `webhook-signature` header value for one message, signed with every given secret. */
export function signatureHeader(secrets: readonly string[], msgId: string, timestampMs: number, body: string): string {
  const at = new Date(Math.floor(timestampMs / 1000) * 1000);
  return secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(" ");
}

/** The three Standard Webhooks headers of one attempt. */
export function webhookHeaders(secrets: readonly string[], msgId: string, timestampMs: number, body: string): Record<string, string> {
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(timestampMs / 1000)),
    "webhook-signature": signatureHeader(secrets, msgId, timestampMs, body),
  };
}
