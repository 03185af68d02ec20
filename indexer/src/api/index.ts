/**
 * The indexer's own HTTP reads, served by Ponder next to its /health, /ready and /status. With the embedded PGlite,
 * Ponder's database lives inside the Ponder process (exclusive lock), so the service reads the projection through
 * these routes (api/domain/onchain/http-reader.ts). With Postgres the service reads the `--views-schema` views directly
 * (api/domain/onchain/sql-reader.ts); both answer the same raw rows, and api/domain/onchain shapes them.
 */
import { Hono } from "hono";
import { db } from "ponder:api";
import schema from "ponder:schema";
import { and, asc, desc, eq, gte, lt, or } from "ponder";
import { toJsonValue as json } from "../../../decoder/json";

const app = new Hono();
const clamp = (v: string | undefined, d: number, max: number) => Math.min(Math.max(Number(v ?? d) || d, 1), max);
const addr = (s: string) => s.toLowerCase() as `0x${string}`;

app.get("/ledger/batches", async (c) => {
  const limit = clamp(c.req.query("limit"), 50, 500);
  const rows = await db.select().from(schema.ledgerBatch).orderBy(desc(schema.ledgerBatch.nonce)).limit(limit);
  return c.json({ batches: json(rows) });
});

app.get("/markets/:marketId/holders", async (c) => {
  const marketId = BigInt(c.req.param("marketId"));
  const rows = await db.select().from(schema.outcomeHolder).where(eq(schema.outcomeHolder.marketId, marketId));
  return c.json({ holders: json(rows.filter((r) => r.balance !== 0n)) });
});

/** LMSR markets, newest first; `state` 0/1/2 and `creator` filter. */
app.get("/onchain/markets", async (c) => {
  const m = schema.lmsrMarket;
  const limit = clamp(c.req.query("limit"), 100, 1000);
  const offset = Math.max(Number(c.req.query("offset") ?? 0) || 0, 0);
  const state = c.req.query("state");
  const creator = c.req.query("creator");
  const where = and(state !== undefined ? eq(m.state, Number(state)) : undefined, creator ? eq(m.creator, addr(creator)) : undefined);
  const rows = await db.select().from(m).where(where).orderBy(desc(m.createdBlock), asc(m.address)).limit(limit).offset(offset);
  return c.json({ markets: json(rows) });
});

app.get("/onchain/markets/:address", async (c) => {
  const rows = await db
    .select()
    .from(schema.lmsrMarket)
    .where(eq(schema.lmsrMarket.address, addr(c.req.param("address"))));
  return c.json({ market: rows[0] ? json(rows[0]) : null });
});

/** Trades newest first; cursor `before` = "<blockNumber>:<logIndex>" (exclusive); `since` = unix seconds (inclusive). */
app.get("/onchain/markets/:address/trades", async (c) => {
  const t = schema.lmsrTrade;
  const limit = clamp(c.req.query("limit"), 50, 5000);
  const before = c.req.query("before");
  const since = c.req.query("since");
  const [b, l] = before ? before.split(":").map((x) => BigInt(x)) : [];
  const cursor = before ? or(lt(t.blockNumber, b!), and(eq(t.blockNumber, b!), lt(t.logIndex, Number(l)))) : undefined;
  const rows = await db
    .select()
    .from(t)
    .where(and(eq(t.market, addr(c.req.param("address"))), cursor, since ? gte(t.timestamp, BigInt(since)) : undefined))
    .orderBy(desc(t.blockNumber), desc(t.logIndex))
    .limit(limit);
  return c.json({ trades: json(rows) });
});

app.get("/onchain/markets/:address/holders", async (c) => {
  const market = (
    await db
      .select()
      .from(schema.lmsrMarket)
      .where(eq(schema.lmsrMarket.address, addr(c.req.param("address"))))
  )[0];
  if (!market) return c.json({ holders: [] });
  const rows = await db.select().from(schema.outcomeHolder).where(eq(schema.outcomeHolder.marketId, market.marketId));
  return c.json({ holders: json(rows.filter((r) => r.balance !== 0n)) });
});

app.get("/onchain/intents/:digest", async (c) => {
  const rows = await db
    .select()
    .from(schema.intentExecution)
    .where(eq(schema.intentExecution.digest, addr(c.req.param("digest"))));
  return c.json({ executions: json(rows) });
});

export default app;
