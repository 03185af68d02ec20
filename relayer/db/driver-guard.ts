/**
 * Contains one known crash of the Postgres driver (postgres.js 3.4.9, porsager/postgres#1154 and #1208, fixes not yet
 * released): when the server closes a connection (a restart, a fail-over) while a small write is queued on
 * setImmediate, `nextWrite` calls `socket.write` on the nulled socket and throws from the timer, where no caller can
 * catch it, so the process dies. By then the connection's queries were rejected with CONNECTION_CLOSED (the API
 * answers them 503), and the write is moot. The service process (api/main.ts) installs this once: that one error is
 * logged and the process lives; any other uncaught exception still ends the process with its stack, as Node would.
 * The Postgres-restart fault test (test/faults/postgres-restart.test.ts) runs with it, as the service does.
 */

/** The driver's closed-socket write: a TypeError on `write` of null thrown from postgres/src/connection.js nextWrite. */
export function isClosedSocketWrite(err: unknown): boolean {
  if (!(err instanceof TypeError)) return false;
  const stack = err.stack ?? "";
  return /reading 'write'/.test(err.message) && /nextWrite/.test(stack) && /postgres[\\/]src[\\/]connection\.js/.test(stack);
}

let installed = false;

/** Installs the guard (once per process). `warn` is told of each contained error. */
export function containPostgresDriverCrash(warn: (msg: string) => void): void {
  if (installed || process.hasUncaughtExceptionCaptureCallback()) return;
  installed = true;
  process.setUncaughtExceptionCaptureCallback((err) => {
    if (isClosedSocketWrite(err)) {
      warn("postgres driver: a write on a connection the server closed was dropped (porsager/postgres#1208)");
      return;
    }
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
