/**
 * `npm run seed -- [--file markets.json] [--polymarket]`: lists the demo markets, or the markets of a JSON file, in
 * the catalog of the configured database (DATABASE_URL, else PGlite in DATA_DIR; stop `npm start` first when it runs
 * on PGlite, which allows one process). A file is a Polymarket-style array (Gamma-API objects with conditionId) or an
 * array of MarketSpecs (objects with externalId); `--polymarket` forces the first reading. Prints one JSON line per
 * market and a summary line; exits 1 when an entry was refused.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadConfig } from "../../api/config";
import { openDatabase } from "../../relayer/db/client";
import { migrateService } from "../../api/platform/db/migrations";
import { systemClock } from "../../relayer/clock";
import { demoMarkets } from "../../api/domain/markets/seed/demo-markets";
import { marketSpecSchema, type MarketSpec } from "../../api/domain/markets/seed/market-spec";
import { importPolymarketJson } from "../../api/domain/markets/seed/polymarket-import";
import { seedCatalog } from "../../api/domain/markets/seed/seed-catalog";

/** Reads a file of specs: MarketSpec JSON (bigint seed as a decimal string) or Polymarket-style entries. */
export function specsFromJson(json: unknown, forcePolymarket: boolean): { specs: MarketSpec[]; errors: { index: number; message: string }[] } {
  const list = Array.isArray(json) ? json : [json];
  const looksPolymarket = forcePolymarket || list.every((e) => typeof e === "object" && e !== null && "conditionId" in e && !("externalId" in e));
  if (looksPolymarket) {
    const r = importPolymarketJson(list);
    return { specs: r.markets, errors: r.errors };
  }
  const specs: MarketSpec[] = [];
  const errors: { index: number; message: string }[] = [];
  list.forEach((raw, index) => {
    const withSeed = typeof raw === "object" && raw !== null && "seed" in raw ? { ...raw, seed: BigInt(String((raw as { seed: unknown }).seed)) } : raw;
    const p = marketSpecSchema.safeParse(withSeed);
    if (p.success) specs.push(p.data);
    else errors.push({ index, message: `${p.error.issues[0].path.join(".")}: ${p.error.issues[0].message}` });
  });
  return { specs, errors };
}

const USAGE = "usage: npm run seed -- [--file markets.json] [--polymarket]";

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { file: { type: "string" }, polymarket: { type: "boolean" }, help: { type: "boolean", short: "h" } } });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const file = values.file;
  if (file === "") throw new Error("--file needs a path");
  const config = loadConfig(process.env);
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, schema: config.DATABASE_SCHEMA });
  try {
    await migrateService(db);
    const { specs, errors } = file
      ? specsFromJson(JSON.parse(readFileSync(file, "utf8")), values.polymarket === true)
      : { specs: demoMarkets(systemClock.now()), errors: [] };
    for (const e of errors) console.log(JSON.stringify({ refused: e.index, message: e.message }));
    const seeded = await seedCatalog(db, systemClock, specs, { chainId: config.CHAIN_ID });
    for (const s of seeded)
      console.log(JSON.stringify({ externalId: s.spec.externalId, marketId: s.marketId.toString(), address: s.address, created: s.created }));
    console.log(
      JSON.stringify({
        seeded: seeded.filter((s) => s.created).length,
        existing: seeded.filter((s) => !s.created).length,
        refused: errors.length,
        storage: db.location,
      }),
    );
    return errors.length > 0 ? 1 : 0;
  } finally {
    await db.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(`seed: ${err.message}`);
      process.exit(1);
    },
  );
}
