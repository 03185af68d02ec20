import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAdmin } from "./admin";
import { openDatabase } from "../relayer/db/client";
import { openTestDatabase } from "../test/support/db";
import { manualClock } from "../relayer/clock";
import { findPrincipal } from "../api/domain/auth/api-keys";
import { createLocalAgent, issueDemoKey } from "../api/domain/auth/local-agents";
import { isResearchProducer } from "../api/domain/content/store";
import { freePort } from "../test/support/ports";
import { startTestService, stopTestService } from "../test/support/service";

describe("admin CLI on the service's PGlite data directory", () => {
  const dir = mkdtempSync(join(tmpdir(), "pm-admin-"));
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL, PORT: process.env.PORT, ADMIN_TOKEN: process.env.ADMIN_TOKEN };
  before(async () => {
    process.env.DATA_DIR = dir;
    // Nothing listens there: the CLI opens the database itself (another stack on :8080 must not answer for us).
    process.env.PORT = String(await freePort());
    delete process.env.ADMIN_TOKEN;
    delete process.env.DATABASE_URL;
  });
  after(() => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    rmSync(dir, { recursive: true, force: true });
  });

  it("agent create --json makes an agent whose key authenticates", async () => {
    const lines: string[] = [];
    assert.equal(await runAdmin(["agent", "create", "--name", "ops-bot", "--tier", "propose", "--json"], (l) => lines.push(l)), 0);
    const made = JSON.parse(lines[0]) as { apiKey: string; tier: string; walletAddress: string; walletPrivateKey: string; ledgerAccount: string };
    assert.equal(made.tier, "propose");
    assert.match(made.walletPrivateKey, /^0x[0-9a-f]{64}$/);
    assert.equal(made.ledgerAccount, made.walletAddress);
    const db = await openDatabase({ dataDir: dir });
    try {
      const p = await findPrincipal(db, made.apiKey);
      assert.equal(p?.name, "ops-bot");
      assert.equal(p?.tier, "propose");
    } finally {
      await db.close();
    }
    await assert.rejects(
      runAdmin(["agent", "create", "--name", "OPS-BOT"], () => {}),
      /NAME_TAKEN/,
    );
    await assert.rejects(
      runAdmin(["agent", "create", "--name", "x", "--tier", "god"], () => {}),
      /tier must be one of/,
    );
  });

  it("agent grant-research / revoke-research set the research-producer grant; unknown or malformed ids are refused", async () => {
    const lines: string[] = [];
    assert.equal(await runAdmin(["agent", "create", "--name", "research-bot", "--json"], (l) => lines.push(l)), 0);
    const { agentId } = JSON.parse(lines[0]) as { agentId: string };
    const granted = async () => {
      const db = await openDatabase({ dataDir: dir });
      try {
        return isResearchProducer(db, agentId);
      } finally {
        await db.close();
      }
    };
    assert.equal(await granted(), false);
    assert.equal(await runAdmin(["agent", "grant-research", agentId], (l) => lines.push(l)), 0);
    assert.match(lines.at(-1)!, /may publish research/);
    assert.equal(await granted(), true);
    assert.equal(await runAdmin(["agent", "revoke-research", agentId], () => {}), 0);
    assert.equal(await granted(), false);
    await assert.rejects(
      runAdmin(["agent", "grant-research", "00000000-0000-4000-8000-000000000000"], () => {}),
      /AGENT_NOT_FOUND/,
    );
    await assert.rejects(
      runAdmin(["agent", "grant-research", "research-bot"], () => {}),
      /must be a UUID/,
    );
    await assert.rejects(
      runAdmin(["agent", "grant-research"], () => {}),
      /needs <agentId>/,
    );
  });

  it("mail lists the outbox; a running PGlite service gets a clear message", async () => {
    const holder = await openDatabase({ dataDir: dir });
    try {
      await holder.query(`INSERT INTO api_mail_outbox (to_address, subject, body, created_at) VALUES ('o@example.com', 'Claim your agent', 'token clm_x', 1)`);
      await assert.rejects(
        runAdmin(["mail"], () => {}),
        /no service answered the admin API[\s\S]*stop `npm start` first/,
      );
    } finally {
      await holder.close();
    }
    const lines: string[] = [];
    assert.equal(await runAdmin(["mail"], (l) => lines.push(l)), 0);
    assert.match(lines.join("\n"), /to o@example\.com[\s\S]*Claim your agent[\s\S]*clm_x/);
  });
});

describe("admin CLI against a running service (HTTP)", () => {
  const saved = { DATA_DIR: process.env.DATA_DIR, PORT: process.env.PORT, ADMIN_TOKEN: process.env.ADMIN_TOKEN };
  after(() => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it("creates agents, grants research, lists mail and shows status over /admin/v1 while PGlite is held", async () => {
    const t = await startTestService({ INDEXER_ENABLED: "false", SEED_DEMO_MARKETS: "false" });
    try {
      process.env.DATA_DIR = t.dir; // the CLI reads the service's admin-token there
      process.env.PORT = String(t.svc.port);
      delete process.env.ADMIN_TOKEN;
      const lines: string[] = [];
      assert.equal(await runAdmin(["agent", "create", "--name", "live-bot", "--json"], (l) => lines.push(l)), 0);
      const made = JSON.parse(lines[0]) as { apiKey: string; agentId: string };
      assert.equal((await findPrincipal(t.svc.ctx.db, made.apiKey))?.name, "live-bot");
      assert.equal(await runAdmin(["agent", "grant-research", made.agentId], () => {}), 0);
      assert.equal(await isResearchProducer(t.svc.ctx.db, made.agentId), true);
      await assert.rejects(
        runAdmin(["agent", "create", "--name", "LIVE-BOT"], () => {}),
        /NAME_TAKEN/,
      );
      await t.svc.ctx.db.query(`INSERT INTO api_mail_outbox (to_address, subject, body, created_at) VALUES ('live@example.com', 'Live', 'b', 1)`);
      const mail: string[] = [];
      assert.equal(await runAdmin(["mail", "--json"], (l) => mail.push(l)), 0);
      assert.equal(JSON.parse(mail[0]).to, "live@example.com");
      const status: string[] = [];
      assert.equal(await runAdmin(["status"], (l) => status.push(l)), 0);
      assert.match(status.join("\n"), /chain +8453 \(own-node\)/);
      process.env.ADMIN_TOKEN = "adm_not_the_service_token_0123456789";
      await assert.rejects(
        runAdmin(["mail"], () => {}),
        /refused the operator credential/,
      );
    } finally {
      await stopTestService(t);
    }
  });
});

describe("local agents", () => {
  it("the demo key is re-issued on each start and the earlier one revoked", async () => {
    const db = await openTestDatabase();
    const clock = manualClock();
    try {
      const first = await issueDemoKey(db, clock);
      const second = await issueDemoKey(db, clock);
      assert.equal(first.agentId, second.agentId);
      assert.notEqual(first.apiKey, second.apiKey);
      assert.equal(await findPrincipal(db, first.apiKey), null);
      assert.equal((await findPrincipal(db, second.apiKey))?.tier, "execute");
      const other = await createLocalAgent(db, clock, { name: "reader", tier: "read-only" });
      assert.deepEqual(other.scopes, ["markets:read", "trade:quote", "portfolio:read", "keys:read"]);
    } finally {
      await db.close();
    }
  });
});
