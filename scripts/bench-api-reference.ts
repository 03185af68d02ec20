/**
 * The reference of `npm run bench:api` (issue 20): the ceiling of a durable HTTP write on this machine. A minimal Hono
 * endpoint on the service's own database that validates the same body as place-order (zod), group-commits one
 * multi-row insert per tick (the next tick as soon as the previous returned) and answers after the commit. Nothing
 * else: no auth, no idempotency, no engine. place-order's `ratio` is its rps over this one's, measured in the same run.
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { z } from "zod";
import type { Database } from "../relayer/db/client";
import { CommitUnit, groupCommitterOf, rowSink } from "../relayer/db/group-commit";
import { placeOrderBody } from "../api/operations/orderbook/schemas";

const SINK = rowSink(
  "bench_reference_orders",
  `INSERT INTO bench_reference_orders (market, body) SELECT market, body FROM json_to_recordset($1::text::json) AS x(market text, body json)`,
);

export async function startReference(db: Database): Promise<{ url: string; close: () => Promise<void> }> {
  await db.exec(`CREATE TABLE IF NOT EXISTS bench_reference_orders (id bigserial PRIMARY KEY, market text NOT NULL, body json NOT NULL)`);
  const committer = groupCommitterOf(db);
  if (!committer) throw new Error("the reference needs a database handle");
  const app = new Hono();
  app.post("/orders", async (c) => {
    const parsed = placeOrderBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json({ error: z.prettifyError(parsed.error) }, 400);
    const unit = new CommitUnit();
    unit.add(
      committer,
      SINK,
      JSON.stringify({ market: parsed.data.market, body: parsed.data.orders }, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
    );
    await unit.seal();
    return c.json({ ok: true });
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await db.exec(`DROP TABLE IF EXISTS bench_reference_orders`);
    },
  };
}
