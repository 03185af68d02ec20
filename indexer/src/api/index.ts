/**
 * The indexer's own HTTP reads, served by Ponder next to its /health, /ready and /status. The service reads
 * projections through these routes: with the embedded PGlite, Ponder's database lives inside the Ponder process, so
 * HTTP is the one way in that works on both databases, and it always reads Ponder's current tables.
 */
import { Hono } from "hono";
import { db } from "ponder:api";
import schema from "ponder:schema";
import { desc, eq } from "ponder";

const app = new Hono();
const json = (v: unknown) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x)));

app.get("/ledger/batches", async (c) => {
  const limit = Math.min(Math.max(Number(c.req.query("limit") ?? 50) || 50, 1), 500);
  const rows = await db.select().from(schema.ledgerBatch).orderBy(desc(schema.ledgerBatch.nonce)).limit(limit);
  return c.json({ batches: json(rows) });
});

app.get("/markets/:marketId/holders", async (c) => {
  const marketId = BigInt(c.req.param("marketId"));
  const rows = await db.select().from(schema.outcomeHolder).where(eq(schema.outcomeHolder.marketId, marketId));
  return c.json({ holders: json(rows.filter((r) => r.balance !== 0n)) });
});

export default app;
