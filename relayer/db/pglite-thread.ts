/**
 * PGlite on a worker thread (pglite-worker.cjs): the same SQL, answered by a database that runs beside the event loop
 * instead of on it. A profile of place-order on PGlite showed the WebAssembly engine and its file writes taking
 * 55–65% of the main thread's time (docs/api-performance.md); on this thread they now overlap with HTTP work.
 *
 * Each call is one message and one answer. Results and parameters cross by structured clone (bigint, Date and
 * Uint8Array survive); errors come back as plain fields (code, detail, constraint...) on an Error, so callers that
 * test `err.code === "23505"` see what they saw on one thread.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";

type Op = "query" | "exec" | "batch" | "begin" | "end" | "listen" | "unlisten" | "close";

interface Answer {
  id?: number;
  result?: unknown;
  error?: Record<string, unknown> & { message: string; name: string };
  notify?: number;
  payload?: string;
}

function errorFrom(fields: NonNullable<Answer["error"]>): Error {
  const err = new Error(fields.message);
  Object.assign(err, fields);
  return err;
}

export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly #listeners = new Map<number, (payload: string) => void>();
  #nextId = 1;
  #stopped: Error | null = null;

  private constructor(dir: string | undefined) {
    this.#worker = new Worker(join(__dirname, "pglite-worker.cjs"), { workerData: { dir } });
    // The open database keeps the process alive until close(), as PGlite on one thread does: a timer the exchange
    // unrefs (its GTD expiry) still fires while the database is open.
    this.#worker.on("message", (m: Answer) => this.#onAnswer(m));
    this.#worker.on("error", (err) => this.#stop(err));
    this.#worker.on("exit", (code) => this.#stop(new Error(`the PGlite thread stopped (exit ${code})`)));
  }

  /** Starts the thread and opens the database in `dir` (in memory when undefined). */
  static async open(dir: string | undefined): Promise<PgliteThread> {
    const thread = new PgliteThread(dir);
    try {
      await thread.#wait(0);
    } catch (err) {
      await thread.#worker.terminate();
      throw err;
    }
    return thread;
  }

  call<T>(op: Op, fields: Record<string, unknown> = {}): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    const answer = this.#wait(id) as Promise<T>;
    this.#worker.postMessage({ id, op, ...fields });
    return answer;
  }

  /** Subscribes `onMessage` to NOTIFY on `channel`; resolves to the unsubscribe function. */
  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    const sub = this.#nextId++;
    this.#listeners.set(sub, onMessage);
    await this.call("listen", { channel, sub });
    return async () => {
      this.#listeners.delete(sub);
      await this.call("unlisten", { sub });
    };
  }

  async close(): Promise<void> {
    try {
      await this.call("close");
    } finally {
      await this.#worker.terminate();
    }
  }

  #wait(id: number): Promise<unknown> {
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  #onAnswer(m: Answer): void {
    if (m.notify !== undefined) {
      this.#listeners.get(m.notify)?.(m.payload ?? "");
      return;
    }
    const waiter = this.#pending.get(m.id ?? -1);
    if (!waiter) return;
    this.#pending.delete(m.id!);
    if (m.error) waiter.reject(errorFrom(m.error));
    else waiter.resolve(m.result);
  }

  #stop(err: Error): void {
    this.#stopped ??= err;
    for (const w of this.#pending.values()) w.reject(err);
    this.#pending.clear();
  }
}
