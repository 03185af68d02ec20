/**
 * The committed lane's order-book quote announces the fee the engine then charges: the engine charges the taker fee
 * per fill (one fill per matched maker order, each rounded up on its own), so the quote sums that same per-fill fee
 * over the orders it walks. Checked under both fee policies on books with several levels and several makers per
 * level, for a YES buy (taking asks) and a NO buy (minting against YES bids), through the real HTTP API.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createLocalAgent } from "../auth/local-agents";
import { listMarketsInVenue } from "../venue/seed-markets";
import type { MarketSpec } from "../markets/seed/market-spec";
import { apiClient, startTestService, stopTestService, type Json, type TestService } from "../../../test/support/service";

const DAY = 86_400_000;
const LOT = 10_000n;

/** A resting maker order in the API's order shape: the outcome's own price. */
interface Rest {
  maker: number;
  outcome: 0 | 1;
  priceBps: number;
  lots: bigint;
}

/**
 * Asks (in YES terms) at 4833, 5000 and 5171, bids at 4717, 4589 and 4411; two or three makers at each level, sizes
 * whose fees round differently one by one than together. Asks are NO buys and bids YES buys, so the makers need only
 * PM. The levels straddle 5000, where shares-v2's min(p, 10000 - p) bends.
 */
const BOOK: Rest[] = [
  { maker: 0, outcome: 1, priceBps: 10_000 - 4833, lots: 3n },
  { maker: 1, outcome: 1, priceBps: 10_000 - 4833, lots: 7n },
  { maker: 2, outcome: 1, priceBps: 10_000 - 4833, lots: 1n },
  { maker: 1, outcome: 1, priceBps: 10_000 - 5000, lots: 5n },
  { maker: 0, outcome: 1, priceBps: 10_000 - 5000, lots: 3n },
  { maker: 2, outcome: 1, priceBps: 10_000 - 5171, lots: 9n },
  { maker: 0, outcome: 1, priceBps: 10_000 - 5171, lots: 13n },
  { maker: 2, outcome: 0, priceBps: 4717, lots: 3n },
  { maker: 0, outcome: 0, priceBps: 4717, lots: 11n },
  { maker: 1, outcome: 0, priceBps: 4589, lots: 7n },
  { maker: 2, outcome: 0, priceBps: 4589, lots: 5n },
  { maker: 0, outcome: 0, priceBps: 4411, lots: 4n },
  { maker: 1, outcome: 0, priceBps: 4411, lots: 6n },
  { maker: 2, outcome: 0, priceBps: 4411, lots: 2n },
];

const spec = (externalId: string, feePolicyVersion: "notional-v1" | "shares-v2", takerFeeBps: number, now: number): MarketSpec => ({
  externalId,
  title: `Quoted fee equals charged fee under ${feePolicyVersion}`,
  description: "",
  category: "OTHER",
  pricingModel: "ORDERBOOK",
  outcomes: ["Yes", "No"],
  closeTime: now + 30 * DAY,
  takerFeeBps,
  feePolicyVersion,
  resolutionSource: { type: "creator", note: "test market" },
});

describe("committed lane: the order-book quote's fee is the fee the engine charges", () => {
  let t: TestService;
  let makers: ReturnType<typeof apiClient>[];
  let taker: ReturnType<typeof apiClient>;
  let takerKey: string;
  const markets: Record<string, Json> = {};

  before(async () => {
    t = await startTestService({ FILL_ALLOWANCE_FREE_PER_PERIOD: "1000" });
    const now = t.clock.now();
    const listed = await listMarketsInVenue(t.svc.ctx, t.svc.services.venue.exchange, [
      spec("test:fee-notional-v1", "notional-v1", 137, now),
      spec("test:fee-shares-v2", "shares-v2", 149, now),
    ]);
    for (const m of listed) markets[m.feePolicyVersion!] = { address: m.address };
    makers = [];
    for (let i = 0; i < 3; i++) makers.push(apiClient(t, (await createLocalAgent(t.svc.ctx.db, t.clock, { name: `fee-maker-${i}` })).apiKey));
    takerKey = (await createLocalAgent(t.svc.ctx.db, t.clock, { name: "fee-taker" })).apiKey;
    taker = apiClient(t, takerKey);
  });
  after(async () => stopTestService(t));

  for (const policy of ["notional-v1", "shares-v2"] as const) {
    describe(policy, () => {
      before(async () => {
        for (const r of BOOK) {
          const placed = await makers[r.maker]!("POST", "/orderbook/place-order", {
            market: markets[policy]!.address,
            outcome: r.outcome,
            side: "buy",
            priceBps: String(r.priceBps),
            size: String(r.lots * LOT),
          });
          assert.equal(placed.status, 200, JSON.stringify(placed.json));
        }
      });

      const cases = [
        // In this order: the sell sells what the buy bought, the NO buy takes the bids the sell left.
        { name: "a YES buy across three ask levels", outcome: 0, side: "buy", lots: 35n, levels: 3 },
        { name: "a YES sell across two bid levels", outcome: 0, side: "sell", lots: 20n, levels: 2 },
        { name: "a NO buy across two bid levels", outcome: 1, side: "buy", lots: 15n, levels: 2 },
      ];
      for (const c of cases) {
        it(`${c.name}: quoted fee = the sum of the taker's fill fees`, async () => {
          const body = { market: markets[policy]!.address, outcome: c.outcome, side: c.side, shares: String(c.lots * LOT), slippageBps: 100 };
          const quote = await taker("POST", "/trade/quote", body);
          assert.equal(quote.status, 200, JSON.stringify(quote.json));
          assert.equal(quote.json.fillableShares, body.shares, "the book holds the whole size");
          const res = await taker("POST", "/trade/prepare", { ...body, limitPriceBps: quote.json.limitPriceBps });
          assert.equal(res.status, 201, JSON.stringify(res.json));
          assert.equal(res.json.filledSize, body.shares);
          const fills = res.json.fills as Json[];
          assert.equal(new Set(fills.map((f) => f.priceBps)).size, c.levels, "the trade walks every level");
          assert.ok(fills.length > c.levels, "several makers filled at one level");
          const charged = fills.reduce((s, f) => s + BigInt(f.fee), 0n);
          assert.ok(charged > 0n);
          assert.equal(
            quote.json.fee,
            charged.toString(),
            `quoted ${quote.json.fee}, charged ${charged} (${fills.map((f) => `${f.size}@${f.priceBps}:${f.fee}`).join(", ")})`,
          );
        });
      }
    });
  }

  it("answers the same quote over MCP, accepted by the SDK's check against the tool's output schema", async () => {
    const client = new Client({ name: "lane-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(t.svc.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${takerKey}` } } }));
    try {
      const tool = (await client.listTools()).tools.find((x) => x.name === "svc_quote_trade")!;
      assert.ok(Array.isArray((tool.outputSchema as Json).oneOf), "the output schema is the union");
      const body = { market: markets["shares-v2"]!.address, outcome: 0, side: "sell", shares: String(5n * LOT), slippageBps: 100 };
      // callTool rejects structured content that does not match the output schema.
      const r = await client.callTool({ name: "svc_quote_trade", arguments: body });
      assert.equal(r.isError, undefined, JSON.stringify(r.content));
      assert.deepEqual(r.structuredContent, (await taker("POST", "/trade/quote", body)).json);
    } finally {
      await client.close();
    }
  });
});
