/**
 * npm run bench:indexer — receipt-to-API latency of on-chain trades: a real Hardhat node, a real Ponder process
 * (PGlite, PONDER_POLLING_MS, default 100) and the API. For each of TRADES (default 60) direct LmsrMarket.buy calls,
 * the clock starts when the receipt arrives and stops when GET /discover/markets/{address}/trades shows the trade.
 * Prints {"bench":"indexer","trades":…,"p50Ms":…,"p99Ms":…}.
 */
import { maxUint256, type Address, type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { lmsrMarketAbi, testUSDCAbi } from "../generated/abis";
import { createLocalAgent } from "../api/domain/auth/local-agents";
import { eventually, startOnchainStack } from "../test/support/stack/onchain";
import { z } from "zod";
import { scriptEnv } from "./env";

async function main() {
  const env = scriptEnv({
    TRADES: z.coerce.number().int().positive().default(60),
    PONDER_POLLING_MS: z.coerce.number().int().min(10).default(100),
    DATABASE_URL: z.string().optional(),
  });
  const trades = Math.min(env.TRADES, 100); // the trades route pages at 100
  const pollingMs = env.PONDER_POLLING_MS;
  const s = await startOnchainStack({ pollingMs });
  try {
    const market = (await s.createMarket(10_000_000_000n)).toLowerCase() as Address;
    const trader = await s.fundedWallet(generatePrivateKey() as Hex, 1_000_000_000_000n);
    const approve = await trader.writeContract({
      chain: s.chain,
      account: trader.account!,
      address: s.deployment.contracts.TestUSDC!.address,
      abi: testUSDCAbi,
      functionName: "approve",
      args: [market, maxUint256],
    });
    await s.client.waitForTransactionReceipt({ hash: approve });
    const { apiKey } = await createLocalAgent(s.svc.ctx.db, s.svc.ctx.clock, { name: "bench-reader", tier: "read-only" });
    const count = async () => {
      const r = await fetch(`${s.svc.baseUrl}/discover/markets/${market}/trades?limit=100`, { headers: { authorization: `Bearer ${apiKey}` } });
      return r.ok ? ((await r.json()) as { trades: unknown[] }).trades.length : -1;
    };
    await eventually(async () => ((await count()) === 0 ? true : undefined), 30_000); // listed in the catalog
    const latencies: number[] = [];
    for (let i = 0; i < trades; i++) {
      const hash = await trader.writeContract({
        chain: s.chain,
        account: trader.account!,
        address: market,
        abi: lmsrMarketAbi,
        functionName: "buy",
        args: [i % 2, 1_000_000n, maxUint256, trader.account!.address],
      });
      await s.client.waitForTransactionReceipt({ hash, pollingInterval: 5 });
      const t0 = performance.now();
      await eventually(async () => ((await count()) >= i + 1 ? true : undefined), 30_000, 5);
      latencies.push(performance.now() - t0);
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!);
    console.log(
      JSON.stringify({
        bench: "indexer",
        database: env.DATABASE_URL ? "postgres" : "pglite",
        trades,
        pollingMs,
        p50Ms: pct(50),
        p99Ms: pct(99),
        maxMs: Math.round(latencies[latencies.length - 1]!),
      }),
    );
  } finally {
    await s.stop();
  }
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
