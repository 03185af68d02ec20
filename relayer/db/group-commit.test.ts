import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { openTestDatabase } from "../../test/support/db";
import { CommitUnit, GroupCommitter, rowSink, statementSink, tickStatements } from "./group-commit";

const PARENTS = rowSink("gc_parent", `INSERT INTO gc_parent (id, v) SELECT id, v FROM json_to_recordset($1::text::json) AS x(id int, v text)`);
const CHILDREN = rowSink("gc_child", `INSERT INTO gc_child (id, parent) SELECT id, parent FROM json_to_recordset($1::text::json) AS x(id int, parent int)`);
const PARENT_MOVES = rowSink(
  "gc_parent moves",
  `UPDATE gc_parent AS p SET v = x.v FROM json_to_recordset($1::text::json) AS x(id int, v text) WHERE p.id = x.id`,
);
const ONE_PARENT = statementSink("gc_parent (one)", `INSERT INTO gc_parent (id, v) VALUES ($1, $2)`);

const row = (o: object) => JSON.stringify(o);

describe("group commit: a tick's statements", () => {
  it("folds sinks on tables of their own into one statement, each sink its own parameter", () => {
    const statements = tickStatements([
      [PARENTS, [row({ id: 1, v: "a" }), row({ id: 2, v: "b" })]],
      [CHILDREN, [row({ id: 10, parent: 1 })]],
    ]);
    assert.equal(statements.length, 1);
    assert.match(statements[0].text, /^WITH s0 AS \(INSERT INTO gc_parent[\s\S]*\$1::text::json[\s\S]*\)\nINSERT INTO gc_child[\s\S]*\$2::text::json/);
    assert.deepEqual(statements[0].parts, [PARENTS.sql, CHILDREN.sql], "write listeners hear the sinks' own texts");
    assert.deepEqual(statements[0].params, [`[${row({ id: 1, v: "a" })},${row({ id: 2, v: "b" })}]`, `[${row({ id: 10, parent: 1 })}]`]);
  });

  it("starts a new statement at a sink on a table the statement already writes, and at a statement sink", () => {
    const texts = (ordered: Parameters<typeof tickStatements>[0]) => tickStatements(ordered).map((s) => s.parts ?? [s.text]);
    const a = row({ id: 1, v: "a" });
    const c = row({ id: 10, parent: 1 });
    // The move of a parent sees the parent rows inserted by the statement before it.
    assert.deepEqual(
      texts([
        [PARENTS, [a]],
        [CHILDREN, [c]],
        [PARENT_MOVES, [a]],
      ]),
      [[PARENTS.sql, CHILDREN.sql], [PARENT_MOVES.sql]],
    );
    assert.deepEqual(
      texts([
        [CHILDREN, [c]],
        [
          ONE_PARENT,
          [
            [1, "a"],
            [2, "b"],
          ],
        ],
        [PARENT_MOVES, [a]],
      ]),
      [[CHILDREN.sql], [ONE_PARENT.sql], [ONE_PARENT.sql], [PARENT_MOVES.sql]],
    );
    const alone = tickStatements([[PARENTS, [a]]]);
    assert.deepEqual(alone, [{ text: PARENTS.sql, params: [`[${a}]`] }]);
  });

  it("commits a folded tick whole, constraints checked at its end, or nothing of it", async () => {
    const db = await openTestDatabase();
    try {
      await db.exec(`CREATE TABLE gc_parent (id int PRIMARY KEY, v text NOT NULL);
        CREATE TABLE gc_child (id int PRIMARY KEY, parent int NOT NULL REFERENCES gc_parent (id))`);
      const committer = new GroupCommitter(db);
      const heard: string[] = [];
      db.onWrite((_tables, texts) => heard.push(...texts));
      // Child rows placed before their parent in the tick: the foreign key holds once the whole statement ran.
      const child = new CommitUnit();
      child.add(committer, CHILDREN, row({ id: 10, parent: 1 }));
      const parent = new CommitUnit();
      parent.add(committer, PARENTS, row({ id: 1, v: "a" }));
      await Promise.all([parent.seal(), child.seal()]);
      assert.equal(committer.stats.ticks, 1);
      assert.deepEqual(heard, [PARENTS.sql, CHILDREN.sql], "write listeners hear the sinks' own texts, not the folded one");
      assert.deepEqual(
        (await db.query<{ id: number; parent: number }>(`SELECT id, parent FROM gc_child`)).map((r) => [r.id, r.parent]),
        [[10, 1]],
      );

      // A move of a row inserted in the same tick: its statement comes after the insert's, and sees the row.
      const insertAndMove = new CommitUnit();
      insertAndMove.add(committer, PARENTS, row({ id: 3, v: "new" }));
      insertAndMove.add(committer, CHILDREN, row({ id: 12, parent: 3 }));
      insertAndMove.add(committer, PARENT_MOVES, row({ id: 3, v: "moved" }));
      await insertAndMove.seal();
      assert.deepEqual(
        (await db.query<{ v: string }>(`SELECT v FROM gc_parent WHERE id = 3`)).map((r) => r.v),
        ["moved"],
      );
      await db.exec(`DELETE FROM gc_child WHERE id = 12; DELETE FROM gc_parent WHERE id = 3`);

      // A child without its parent fails the folded statement: the other unit's parent row is not kept either.
      const orphan = new CommitUnit();
      orphan.add(committer, CHILDREN, row({ id: 11, parent: 99 }));
      const innocent = new CommitUnit();
      innocent.add(committer, PARENTS, row({ id: 2, v: "b" }));
      const outcomes = await Promise.allSettled([orphan.seal(), innocent.seal()]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ["rejected", "rejected"],
      );
      assert.equal((outcomes[0] as PromiseRejectedResult).reason.code, "23503");
      assert.deepEqual(
        (await db.query<{ id: number }>(`SELECT id FROM gc_parent ORDER BY id`)).map((r) => r.id),
        [1],
      );
    } finally {
      await db.close();
    }
  });
});
