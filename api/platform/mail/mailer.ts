/**
 * Outgoing mail (claim links, email verification). Every message is written to the `api_mail_outbox` table first;
 * with SMTP_URL it is then sent through nodemailer and marked sent (or its error kept). `npm run admin -- mail`
 * lists the outbox. Without SMTP the message is also logged at info (to, subject, body) with its `secrets` (the
 * single-use claim or verification token) redacted: logs travel further than the outbox (terminals, log shippers),
 * and a token in them lets anyone who reads them claim the agent first. The whole body is in the outbox table only
 * (`npm run admin -- mail`). With SMTP nothing of the body is logged.
 */
import type { Transporter } from "nodemailer";
import type { Config } from "../../config";
import type { Database } from "../../../relayer/db/client";
import type { Clock } from "../../../relayer/clock";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Values in `text` that must never reach a log (single-use link tokens). */
  secrets?: readonly string[];
}

/** What of a message may be logged: its body with every secret replaced. */
export function redactedBody(msg: MailMessage): string {
  let body = msg.text;
  for (const secret of msg.secrets ?? []) if (secret) body = body.split(secret).join(REDACTED);
  return body;
}

const REDACTED = "[redacted: the full mail is in the outbox, npm run admin -- mail]";

export interface Mailer {
  readonly transport: "smtp" | "outbox";
  send(msg: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Where an unsent (outbox-only) message is shown; pino's logger fits. */
export interface MailLog {
  info(obj: object, msg: string): void;
}

export function createMailer(config: Config, db: Database, clock: Clock, log?: MailLog): Mailer {
  let smtp: Transporter | null = null;
  const transporter = async (): Promise<Transporter | null> => {
    if (!config.SMTP_URL) return null;
    if (!smtp) {
      const nodemailer = await import("nodemailer");
      smtp = nodemailer.createTransport(config.SMTP_URL);
    }
    return smtp;
  };
  return {
    transport: config.SMTP_URL ? "smtp" : "outbox",
    async send(msg) {
      const [row] = await db.query<{ id: string }>(`INSERT INTO api_mail_outbox (to_address, subject, body, created_at) VALUES ($1, $2, $3, $4) RETURNING id`, [
        msg.to,
        msg.subject,
        msg.text,
        clock.now(),
      ]);
      const t = await transporter();
      if (!t) {
        log?.info({ outboxId: Number(row.id), to: msg.to, subject: msg.subject, body: redactedBody(msg) }, "mail kept in the outbox (no SMTP_URL)");
        return;
      }
      try {
        await t.sendMail({ from: config.MAIL_FROM, to: msg.to, subject: msg.subject, text: msg.text });
        await db.query(`UPDATE api_mail_outbox SET sent_at = $2 WHERE id = $1`, [row.id, clock.now()]);
      } catch (err) {
        await db.query(`UPDATE api_mail_outbox SET error = $2 WHERE id = $1`, [row.id, (err as Error).message.slice(0, 500)]);
      }
    },
    async close() {
      smtp?.close();
    },
  };
}

export interface OutboxEntry {
  id: number;
  to: string;
  subject: string;
  body: string;
  createdAt: number;
  sentAt: number | null;
  error: string | null;
}

/** The newest outbox messages first. */
export async function listOutbox(db: Database, limit = 50): Promise<OutboxEntry[]> {
  const rows = await db.query<{
    id: string;
    to_address: string;
    subject: string;
    body: string;
    created_at: string;
    sent_at: string | null;
    error: string | null;
  }>(`SELECT * FROM api_mail_outbox ORDER BY id DESC LIMIT $1`, [limit]);
  return rows.map((r) => ({
    id: Number(r.id),
    to: r.to_address,
    subject: r.subject,
    body: r.body,
    createdAt: Number(r.created_at),
    sentAt: r.sent_at === null ? null : Number(r.sent_at),
    error: r.error,
  }));
}
