import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../../config";
import type { Database } from "../../../relayer/db/client";
import { openTestDatabase } from "../../../test/support/db";
import { startMailSink, type MailSink } from "../../../test/support/mail-sink";
import { claimMail, verifyEmailMail } from "../../domain/auth/link-mails";
import { createMailer, listOutbox } from "./mailer";

const clock = { now: () => 1_700_000_000_000 };
const message = { to: "owner@example.test", subject: "Claim your agent", text: "Open http://127.0.0.1:8080/claim/abc123 to claim." };

describe("mailer", () => {
  let db: Database;
  let sink: MailSink;
  before(async () => {
    db = await openTestDatabase();
    sink = await startMailSink();
  });
  after(async () => {
    await sink.close();
    await db.close();
  });

  it("without SMTP keeps the message in the outbox and logs it (a body without secrets whole)", async () => {
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const mailer = createMailer(loadConfig({}), db, clock, { info: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }) });
    assert.equal(mailer.transport, "outbox");
    await mailer.send(message);
    const [kept] = await listOutbox(db, 1);
    assert.equal(kept.to, message.to);
    assert.equal(kept.sentAt, null);
    assert.equal(lines.length, 1);
    assert.equal(lines[0].obj.outboxId, kept.id);
    assert.match(String(lines[0].obj.body), /\/claim\/abc123/);
  });

  it("without SMTP logs claim and verification mails with their single-use token redacted; the outbox keeps it", async () => {
    const lines: Record<string, unknown>[] = [];
    const mailer = createMailer(loadConfig({}), db, clock, { info: (obj) => lines.push(obj as Record<string, unknown>) });
    const token = "clm_5ecret-T0ken-value";
    await mailer.send(claimMail("http://127.0.0.1:8080", "victim@example.test", { name: "bot", walletAddress: null }, token, clock.now() + 86_400_000));
    await mailer.send(verifyEmailMail("http://127.0.0.1:8080", "me@example.test", "bot", `${token}-v`, clock.now() + 86_400_000));
    assert.equal(lines.length, 2);
    for (const line of lines) {
      assert.doesNotMatch(JSON.stringify(line), /5ecret-T0ken/);
      assert.match(String(line.body), /redacted/);
    }
    const [verify, claim] = await listOutbox(db, 2);
    assert.match(claim.body, /clm_5ecret-T0ken-value/, "the operator's outbox keeps the link");
    assert.match(verify.body, /clm_5ecret-T0ken-value-v/);
  });

  it("with SMTP sends it, marks the outbox row sent and logs no body", async () => {
    const lines: unknown[] = [];
    const mailer = createMailer(loadConfig({ SMTP_URL: sink.url }), db, clock, { info: (obj) => lines.push(obj) });
    try {
      assert.equal(mailer.transport, "smtp");
      await mailer.send({ ...message, to: "smtp-owner@example.test" });
      await sink.waitFor("smtp-owner@example.test", /claim\/abc123/);
      const [row] = await listOutbox(db, 1);
      assert.equal(row.to, "smtp-owner@example.test");
      assert.equal(row.sentAt, clock.now());
      assert.deepEqual(lines, []);
    } finally {
      await mailer.close();
    }
  });
});
