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
const { protocol, parse } = require("@electric-sql/pglite");
const { createServicePglite } = require("./pglite-pristine.cjs");

const ROLLBACK = Symbol("rollback");

/** Distinct statement texts kept prepared; past it the least recently used one is closed. */
const MAX_PREPARED = 2_000;
/** A text that may change what a prepared statement returns: every kept statement is forgotten once it ran. */
const DDL = /^\s*(?:CREATE|ALTER|DROP|COMMENT|DISCARD|DEALLOCATE)\b/i;
/** SQLSTATEs of a kept statement gone stale: it no longer exists (26000), or its result type changed (0A000). */
const STALE = new Set(["26000", "0A000"]);

const serialize = protocol.serialize;
const joinBytes = (parts) => {
  let size = 0;
  for (const p of parts) size += p.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};

/**
 * Every parameterised statement as a named prepared statement, one per distinct text. PGlite's own `query` parses,
 * plans and describes the text each time, in six calls into WebAssembly; a kept statement is one call (bind, execute,
 * sync) on a plan Postgres caches. Planning was most of a statement's cost: the market list's query took 2.3 ms that
 * way and 0.4 ms prepared, a one-row INSERT 0.29 ms and 0.08 ms. Hot paths send a few fixed texts (the commit
 * tick's set-based sinks), so the cache stays small. Every call runs under PGlite's query lock, as `query` does.
 */
class PreparedStatements {
  constructor(pg) {
    this.pg = pg;
    /** text -> { name, paramTypes, rowDescription } in least recently used order */
    this.byText = new Map();
    this.next = 1;
  }

  /** Rows of `sql` with `params`, inside a transaction when `inTx` (else the file system is synced after, as PGlite does). */
  async rows(sql, params, inTx) {
    try {
      return await this.#run(sql, params);
    } catch (err) {
      if (!STALE.has(err?.code) || !this.byText.delete(sql) || inTx) throw err;
      return this.#run(sql, params); // prepared again; outside a transaction nothing was left half done
    } finally {
      if (DDL.test(sql)) this.byText.clear(); // their names are never reused; a forgotten one only holds memory
      if (!inTx) await this.pg.syncToFs();
    }
  }

  async #run(sql, params) {
    let st = this.byText.get(sql);
    if (st) {
      this.byText.delete(sql);
      this.byText.set(sql, st);
    } else st = await this.#prepare(sql);
    const values = (params ?? []).map((v, i) => {
      if (v === null || v === undefined) return null;
      const toText = this.pg.serializers[st.paramTypes[i]];
      return toText ? toText(v) : v.toString();
    });
    const messages = await this.pg.execProtocolStream(joinBytes([serialize.bind({ statement: st.name, values }), serialize.execute({}), serialize.sync()]), {
      syncToFs: false,
    });
    const [result] = parse.parseResults(st.rowDescription ? [st.rowDescription, ...messages] : messages, this.pg.parsers);
    return result?.rows ?? [];
  }

  async #prepare(sql) {
    const name = `pm_${this.next++}`;
    const messages = await this.pg.execProtocolStream(
      joinBytes([serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }), serialize.sync()]),
      { syncToFs: false },
    );
    const params = messages.find((m) => m.name === "parameterDescription");
    const st = { name, paramTypes: params ? params.dataTypeIDs : [], rowDescription: messages.find((m) => m.name === "rowDescription") ?? null };
    if (this.byText.size >= MAX_PREPARED) {
      const [oldText, old] = this.byText.entries().next().value;
      this.byText.delete(oldText);
      await this.pg.execProtocolStream(joinBytes([serialize.close({ type: "S", name: old.name }), serialize.sync()]), { syncToFs: false });
    }
    this.byText.set(sql, st);
    return st;
  }
}

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
    pg = await createServicePglite(workerData.dir);
  } catch (err) {
    parentPort.postMessage({ id: 0, error: serializeError(err) });
    return;
  }
  const prepared = new PreparedStatements(pg);
  /** A statement inside an open transaction (which holds PGlite's transaction lock) or on its own. */
  const rowsOf = (inTx, sql, params) =>
    inTx
      ? pg.runExclusive(() => prepared.rows(sql, params, true))
      : pg._runExclusiveTransaction(() => pg.runExclusive(() => prepared.rows(sql, params, false)));
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
        if (m.tx) runnerOf(m.tx); // throws when that transaction is not open
        return rowsOf(Boolean(m.tx), m.sql, m.params);
      case "exec":
        await runnerOf(m.tx).exec(m.sql);
        prepared.byText.clear(); // a script may hold DDL
        return null;
      case "batch": // statements in one transaction, answered in one message (the group commit's tick)
        if (m.statements.length === 1) return [await rowsOf(false, m.statements[0].text, m.statements[0].params)]; // atomic alone
        return pg.transaction(async () => {
          const out = [];
          for (const s of m.statements) out.push(await rowsOf(true, s.text, s.params));
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
