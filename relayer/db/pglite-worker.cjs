"use strict";
/**
 * The PGlite thread (relayer/db/pglite-thread.ts): the embedded database runs here, so its WebAssembly engine and
 * file writes no longer take the event loop that answers HTTP. Plain CommonJS because a worker thread does not get
 * the main thread's TypeScript loader.
 *
 * Messages in: { id, op: "query"|"exec"|"batch"|"begin"|"end"|"listen"|"unlisten"|"close", ... }; out: { id, result } or
 * { id, error }, and { notify: sub, payload } for a LISTEN subscription. A transaction is held open between "begin"
 * and "end" (commit or roll back); PGlite queues every other statement meanwhile, as it does on one thread.
 */
const { parentPort, workerData } = require("node:worker_threads");
const { PGlite } = require("@electric-sql/pglite");
const { pg_trgm } = require("@electric-sql/pglite/contrib/pg_trgm");

const ROLLBACK = Symbol("rollback");

/** An error as plain data: its message, name and every scalar field (code, detail, constraint, ...). */
function serializeError(err) {
  const out = { message: String(err?.message ?? err), name: String(err?.name ?? "Error") };
  for (const key of Object.keys(err ?? {})) {
    const v = err[key];
    if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[key] = v;
  }
  return out;
}

async function main() {
  let pg;
  try {
    pg = await PGlite.create(workerData.dir, { extensions: { pg_trgm } });
  } catch (err) {
    parentPort.postMessage({ id: 0, error: serializeError(err) });
    return;
  }
  /** tx id -> { tx, end(commit), settled } */
  const txs = new Map();
  const subs = new Map();
  let nextTx = 1;
  const runnerOf = (tx) => {
    if (!tx) return pg;
    const t = txs.get(tx);
    if (!t) throw new Error(`transaction ${tx} is not open`);
    return t.tx;
  };

  async function begin() {
    const id = nextTx++;
    let entered;
    const inside = new Promise((resolve) => (entered = resolve));
    const settled = pg.transaction(async (tx) => {
      let end;
      const ended = new Promise((resolve) => (end = resolve));
      txs.set(id, { tx, end, settled: null });
      entered();
      if (!(await ended)) throw ROLLBACK;
    });
    settled.catch(() => {}); // observed by "end"; a failed BEGIN is raced below
    await Promise.race([inside, settled]);
    txs.get(id).settled = settled;
    return id;
  }

  async function end(id, commit) {
    const t = txs.get(id);
    if (!t) throw new Error(`transaction ${id} is not open`);
    txs.delete(id);
    t.end(commit);
    try {
      await t.settled;
    } catch (err) {
      if (err !== ROLLBACK) throw err;
    }
    return null;
  }

  async function handle(m) {
    switch (m.op) {
      case "query":
        return (await runnerOf(m.tx).query(m.sql, m.params)).rows;
      case "exec":
        await runnerOf(m.tx).exec(m.sql);
        return null;
      case "batch": // statements in one transaction, answered in one message (the group commit's tick)
        return pg.transaction(async (tx) => {
          const out = [];
          for (const s of m.statements) out.push((await tx.query(s.text, s.params)).rows);
          return out;
        });
      case "begin":
        return begin();
      case "end":
        return end(m.tx, m.commit);
      case "listen": {
        const unsub = await pg.listen(m.channel, (payload) => parentPort.postMessage({ notify: m.sub, payload }));
        subs.set(m.sub, unsub);
        return null;
      }
      case "unlisten": {
        const unsub = subs.get(m.sub);
        subs.delete(m.sub);
        if (unsub) await unsub();
        return null;
      }
      case "close":
        await pg.close();
        return null;
      default:
        throw new Error(`unknown op ${m.op}`);
    }
  }

  parentPort.on("message", (m) => {
    handle(m).then(
      (result) => parentPort.postMessage({ id: m.id, result }),
      (err) => parentPort.postMessage({ id: m.id, error: serializeError(err) }),
    );
  });
  parentPort.postMessage({ id: 0, result: null });
}

void main();
