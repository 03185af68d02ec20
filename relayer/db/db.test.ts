import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { openDatabase } from "./client";
import { DirectoryLockedError, lockDirectory } from "./lock";
import { migrate, readMigrations, RELAYER_MIGRATIONS_DIR } from "./migrate";
import { openTestDatabase } from "../../test/support/db";

const tmp = mkdtempSync(join(tmpdir(), "pm-db-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("lockDirectory", () => {
  it("refuses a second owner while the first lives, and frees on release", () => {
    const dir = join(tmp, "lock1");
    const release = lockDirectory(dir);
    assert.throws(() => lockDirectory(dir, process.pid + 1), DirectoryLockedError);
    release();
    lockDirectory(dir, process.pid + 1)();
  });

  it("takes over a lock whose owner died", async () => {
    const dir = join(tmp, "lock2");
    mkdirSync(dir, { recursive: true });
    const child = spawn(process.execPath, ["-e", "setTimeout(()=>{},10000)"]);
    writeFileSync(join(dir, ".lock"), String(child.pid));
    assert.throws(() => lockDirectory(dir), DirectoryLockedError);
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    lockDirectory(dir)();
  });

  it("lets exactly one of several processes take over the same stale lock", async () => {
    const dir = join(tmp, "lock3");
    mkdirSync(dir, { recursive: true });
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((r) => dead.once("exit", r));
    writeFileSync(join(dir, ".lock"), `${dead.pid} -`);
    // Each contender waits for a shared start instant, tries once, holds a won lock for a while, and says how it went.
    const startAt = Date.now() + 1_500;
    const script = `const { lockDirectory } = require(${JSON.stringify(join(__dirname, "lock.ts"))});
      while (Date.now() < ${startAt}) {}
      try { lockDirectory(${JSON.stringify(dir)}); console.log("won"); setTimeout(() => {}, 60_000); }
      catch (e) { console.log(e.name); }`;
    // A winner holds its lock until every contender has answered (a slow start, on a loaded machine, must not find the
    // winner gone and win too); then the contenders are stopped.
    const children = Array.from({ length: 4 }, () => spawn(process.execPath, ["--import", "tsx", "-e", script]));
    const outcomes = await Promise.all(
      children.map(
        (c) =>
          new Promise<string>((resolve) => {
            let out = "";
            c.stdout.on("data", (d) => {
              out += d;
              if (out.includes("\n")) resolve(out.trim());
            });
            c.once("exit", () => resolve(out.trim()));
          }),
      ),
    );
    for (const c of children) c.kill("SIGKILL");
    assert.equal(outcomes.filter((o) => o === "won").length, 1, outcomes.join(", "));
    assert.ok(
      outcomes.every((o) => o === "won" || o === "DirectoryLockedError"),
      outcomes.join(", "),
    );
  });
});

describe("migrate", () => {
  it("applies each file once, in order, and records it", async () => {
    const db = await openTestDatabase({ migrate: false });
    try {
      const all = readMigrations([RELAYER_MIGRATIONS_DIR]);
      assert.deepEqual(
        await migrate(db, all),
        all.map((m) => m.version),
      );
      assert.deepEqual(await migrate(db, all), []);
      const rows = await db.query<{ version: string }>(`SELECT version FROM schema_migrations ORDER BY version`);
      assert.deepEqual(
        rows.map((r) => r.version),
        all.map((m) => m.version),
      );
    } finally {
      await db.close();
    }
  });

  it("leaves nothing behind when a file fails half way", async () => {
    const db = await openTestDatabase({ migrate: false });
    try {
      const bad = [{ version: "900", name: "bad", sql: "CREATE TABLE half_done (x int);\nSELECT no_such_function();" }];
      await assert.rejects(migrate(db, bad), /900_bad failed/);
      const tables = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`);
      assert.equal(tables.length, 0);
      assert.equal((await db.query(`SELECT 1 FROM schema_migrations WHERE version='900'`)).length, 0);
    } finally {
      await db.close();
    }
  });
});

describe("openDatabase", () => {
  it("round-trips numeric(78,0) at the int256 bounds and rolls back failed transactions", async () => {
    const db = await openTestDatabase();
    try {
      await db.exec(`CREATE TABLE big (v numeric(78,0))`);
      const max = (1n << 255n) - 1n;
      await db.query(`INSERT INTO big VALUES ($1), ($2)`, [max.toString(), (-max).toString()]);
      const rows = await db.query<{ v: string }>(`SELECT v::text AS v FROM big ORDER BY v`);
      assert.deepEqual(
        rows.map((r) => BigInt(r.v)),
        [-max, max],
      );
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query(`INSERT INTO big VALUES ($1)`, ["7"]);
          throw new Error("boom");
        }),
        /boom/,
      );
      assert.equal((await db.query(`SELECT 1 FROM big WHERE v = 7`)).length, 0);
    } finally {
      await db.close();
    }
  });

  it("runs a batch as one transaction: each statement's rows in order, or nothing at all when one fails", async () => {
    const db = await openTestDatabase();
    try {
      await db.exec(`CREATE TABLE kv (k int PRIMARY KEY, v text NOT NULL)`);
      const put = `INSERT INTO kv (k, v) VALUES ($1, $2) RETURNING k`;
      // (postgres.js answers Result arrays, PGlite plain ones)
      const plain = (rows: unknown[][]) => rows.map((r) => [...r]);
      // A statement without rows between others, and one with several: each statement gets its own rows.
      assert.deepEqual(
        plain(
          await db.batch([
            { text: put, params: [1, "a"] },
            { text: `UPDATE kv SET v = v WHERE k = $1`, params: [1] },
            { text: put, params: [2, "b"] },
            { text: `SELECT k FROM kv ORDER BY k` },
            { text: `SELECT count(*)::int AS n FROM kv` },
          ]),
        ),
        [[{ k: 1 }], [], [{ k: 2 }], [{ k: 1 }, { k: 2 }], [{ n: 2 }]],
      );
      // The second statement fails: the first and third are not kept, and the error is the failure's own.
      await assert.rejects(
        db.batch([
          { text: put, params: [3, "c"] },
          { text: put, params: [1, "again"] },
          { text: put, params: [4, "d"] },
        ]),
        (e: Error & { code?: string }) => e.code === "23505",
      );
      assert.deepEqual(
        (await db.query<{ k: number; v: string }>(`SELECT k, v FROM kv ORDER BY k`)).map((r) => [r.k, r.v]),
        [
          [1, "a"],
          [2, "b"],
        ],
      );
      // The handle still serves batches and statements after a failed one.
      assert.deepEqual(plain(await db.batch([{ text: put, params: [5, "e"] }])), [[{ k: 5 }]]);
      assert.equal((await db.query(`SELECT 1 FROM kv`)).length, 3);
    } finally {
      await db.close();
    }
  });

  it("keeps PGlite data across reopen and locks its directory", async () => {
    const dir = join(tmp, "pg1");
    const a = await openDatabase({ dataDir: dir });
    await migrate(a, readMigrations([RELAYER_MIGRATIONS_DIR]));
    await a.query(`INSERT INTO service_meta (key, value) VALUES ('k', 'v')`);
    await assert.rejects(openDatabase({ dataDir: dir }), DirectoryLockedError);
    await a.close();
    const b = await openDatabase({ dataDir: dir });
    try {
      assert.deepEqual(await b.query(`SELECT value FROM service_meta WHERE key='k'`), [{ value: "v" }]);
    } finally {
      await b.close();
    }
  });
});

describe("PGlite placement (worker thread or the caller's)", () => {
  for (const pgliteThread of ["worker", "main"] as const) {
    it(`${pgliteThread}: keeps error fields, queues statements behind an open transaction, rolls back, and notifies`, async () => {
      const db = await openDatabase({ pgliteThread });
      try {
        await db.exec(`CREATE TABLE t (id int PRIMARY KEY, v bigint NOT NULL)`);
        await db.query(`INSERT INTO t VALUES (1, $1)`, [9007199254740993n]);
        const dup = await db.query(`INSERT INTO t VALUES (1, 0)`).then(
          () => null,
          (e: unknown) => e,
        );
        assert.ok(dup instanceof Error);
        assert.equal((dup as Error & { code?: string }).code, "23505", "a unique violation keeps its SQLSTATE");

        // A statement outside the transaction waits until it committed, so it sees the committed row.
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        const tx = db.transaction(async (q) => {
          await q.query(`INSERT INTO t VALUES (2, 2)`);
          await held;
        });
        const outside = db.query<{ n: number }>(`SELECT count(*)::int AS n FROM t`);
        await new Promise((r) => setTimeout(r, 50));
        release();
        await tx;
        assert.equal((await outside)[0].n, 2);

        await assert.rejects(
          db.transaction(async (q) => {
            await q.query(`INSERT INTO t VALUES (3, 3)`);
            throw new Error("abort");
          }),
          /abort/,
        );
        assert.deepEqual(
          (await db.query<{ id: number }>(`SELECT id FROM t ORDER BY id`)).map((r) => r.id),
          [1, 2],
        );

        const got: string[] = [];
        const unlisten = await db.listen("ch", (p) => got.push(p));
        await db.exec(`NOTIFY ch, 'hello'`);
        for (let i = 0; i < 50 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
        assert.deepEqual(got, ["hello"]);
        await unlisten();
      } finally {
        await db.close();
      }
    });
  }

  it("worker: a text run again uses its kept prepared statement and stays right across schema changes and failures", async () => {
    const db = await openDatabase({ pgliteThread: "worker" });
    try {
      await db.exec(`CREATE TABLE p (id int PRIMARY KEY, doc jsonb, big bigint)`);
      const insert = `INSERT INTO p (id, doc, big) VALUES ($1, $2::text::jsonb, $3) RETURNING id`;
      for (let i = 1; i <= 3; i++) assert.deepEqual(await db.query(insert, [i, JSON.stringify({ i }), 9007199254740993n + BigInt(i)]), [{ id: i }]);
      const all = `SELECT * FROM p ORDER BY id`;
      assert.deepEqual(
        (await db.query<{ doc: unknown; big: unknown }>(all)).map((r) => [r.doc, String(r.big)]),
        [
          [{ i: 1 }, "9007199254740994"],
          [{ i: 2 }, "9007199254740995"],
          [{ i: 3 }, "9007199254740996"],
        ],
      );
      // The same text after its result's shape changed, once through a statement and once through a script.
      await db.query(`ALTER TABLE p ADD COLUMN note text DEFAULT 'n'`);
      assert.deepEqual(Object.keys((await db.query(all))[0]).sort(), ["big", "doc", "id", "note"]);
      await db.exec(`ALTER TABLE p DROP COLUMN doc`);
      assert.deepEqual(Object.keys((await db.query(all))[0]).sort(), ["big", "id", "note"]);
      // A failing statement of a batch rolls the batch back; the kept statements still serve afterwards.
      await assert.rejects(
        db.batch([
          { text: `INSERT INTO p (id, big) VALUES ($1, $2)`, params: [4, 4] },
          { text: `INSERT INTO p (id, big) VALUES ($1, $2)`, params: [1, 1] },
        ]),
        (e: Error & { code?: string }) => e.code === "23505",
      );
      assert.deepEqual(
        (await db.query<{ id: number }>(`SELECT id FROM p WHERE id > $1 ORDER BY id`, [0])).map((r) => r.id),
        [1, 2, 3],
      );
      await assert.rejects(db.query(`SELECT 1 / $1::int`, [0]), (e: Error & { code?: string }) => e.code === "22012");
      assert.deepEqual(await db.query(`SELECT 1 / $1::int AS q`, [1]), [{ q: 1 }]);
    } finally {
      await db.close();
    }
  });
});
