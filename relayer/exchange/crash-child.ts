/**
 * Child process of the crash test (exchange.test.ts): opens an Exchange on the given database, runs the trading
 * run from trade `from` with several submitters in flight, and prints one line per ACKNOWLEDGED fill report:
 *   FILL <account> <reportSeq> <tradeId>
 * The parent SIGKILLs it at some point and checks every printed fill is in the journal exactly once.
 *
 *   tsx relayer/exchange/crash-child.ts <pglite-dir | -> <schema | -> <from> <count>
 * (`-` for the directory means Postgres at DATABASE_URL in the given schema.)
 */
import { openDatabase } from "../db/client";
import { migrate, readMigrations, RELAYER_MIGRATIONS_DIR } from "../db/migrate";
import { systemClock } from "../clock";
import { Exchange } from "./exchange";
import { expectAccepted, runEngineConfig, setupCommands, tradeCommands } from "./trading-run";

const TRADERS = 8;

async function main() {
  const [dir, schema, fromArg, countArg] = process.argv.slice(2);
  const db = await openDatabase(dir === "-" ? { databaseUrl: process.env.DATABASE_URL, schema } : { dataDir: dir });
  await migrate(db, readMigrations([RELAYER_MIGRATIONS_DIR]));
  const exchange = await Exchange.open({ db, clock: systemClock, engineConfig: runEngineConfig });
  const from = Number(fromArg);
  const count = Number(countArg);
  if (exchange.nextSeq === 1) for (const c of setupCommands(TRADERS, systemClock.now())) expectAccepted(await exchange.submit(c));
  process.stdout.write(`READY ${exchange.nextSeq}\n`);
  let next = from;
  const worker = async () => {
    while (next < from + count) {
      const k = next++;
      const [maker, taker] = tradeCommands(k, TRADERS);
      // Both legs go in before either is awaited, so the pair shares a flush more often than not.
      const a = exchange.submit(maker);
      const b = exchange.submit(taker);
      for (const applied of (await Promise.all([a, b])).map(expectAccepted)) {
        for (const r of applied.reports) if (r.kind === "fill") process.stdout.write(`FILL ${r.account} ${r.seq} ${r.tradeId}\n`);
      }
    }
  };
  // Workers trade on disjoint pairs only when TRADERS covers them; a shared trader just queues behind the book.
  await Promise.all(Array.from({ length: 4 }, worker));
  process.stdout.write("DONE\n");
  await exchange.close();
  await db.close();
}

main().catch((err) => {
  process.stderr.write(`crash-child failed: ${(err as Error).stack}\n`);
  process.exit(1);
});
