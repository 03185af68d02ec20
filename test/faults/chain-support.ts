/**
 * Shared parts of the chain fault tests: a real Hardhat node with a fresh CommittedLedger behind a TCP proxy that the
 * test cuts, a journal-backed Exchange on a test database, and a Batcher that publishes it through the proxy; plus the
 * figures every chain fault test checks (batch nonces on chain 1..n, each once; the replayed root is the engine's).
 */
import { strict as assert } from "node:assert";
import { createPublicClient, http, type Address, type PublicClient } from "viem";
import { replayLedger } from "../../decoder/replay/replay";
import { committedLedgerAbi } from "../../generated/abis";
import { Batcher, type BatcherOptions } from "../../relayer/batcher/batcher";
import { LedgerChain } from "../../relayer/batcher/chain";
import type { Database } from "../../relayer/db/client";
import { manualClock } from "../../relayer/clock";
import { Exchange } from "../../relayer/exchange/exchange";
import { expectAccepted, runEngineConfig, setupCommands, tradeCommands } from "../../relayer/exchange/trading-run";
import { readAll } from "../../relayer/journal";
import { openTestDatabase } from "../support/db";
import { freePort } from "../support/ports";
import { deployLedger, OPERATOR_KEY, startChain, TREASURY } from "../../scripts/stack/chain";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

export const TRADERS = 6;

export interface ChainRig {
  chain: Awaited<ReturnType<typeof startChain>>;
  proxy: TcpProxy;
  ledger: Address;
  db: Database;
  exchange: Exchange;
  clock: ReturnType<typeof manualClock>;
  client: PublicClient;
  /** A batcher over the proxy with fast retries (`extra` overrides). */
  batcher(extra?: Partial<BatcherOptions>): Promise<Batcher>;
  /** The ledger's head read straight from the node (not through the proxy). */
  head(): ReturnType<LedgerChain["head"]>;
  close(): Promise<void>;
}

export async function openChainRig(): Promise<ChainRig> {
  const chain = await startChain(await freePort());
  const ledger = await deployLedger(chain.rpcUrl);
  const proxy = await startTcpProxy({ port: Number(new URL(chain.rpcUrl).port) });
  const db = await openTestDatabase();
  const clock = manualClock(1_800_000_000_000);
  // The batcher names the dev treasury in every payload header; the engine's fees must go to the same account.
  const exchange = await Exchange.open({ db, clock, engineConfig: { ...runEngineConfig, treasury: TREASURY }, expiryTimer: false });
  for (const c of setupCommands(TRADERS, clock.now())) expectAccepted(await exchange.submit(c));
  const batchers: Batcher[] = [];
  const direct = new LedgerChain(chain.rpcUrl, ledger, OPERATOR_KEY);
  return {
    chain,
    proxy,
    ledger,
    db,
    exchange,
    clock,
    client: createPublicClient({ transport: http(chain.rpcUrl) }) as PublicClient,
    async batcher(extra = {}) {
      const b = await Batcher.open({
        db,
        rpcUrl: proxy.url("http"),
        ledger,
        operatorKey: OPERATOR_KEY,
        treasury: TREASURY,
        intervalMs: 100,
        maxOps: 40,
        backoff: { initialMs: 50, maxMs: 400 },
        requestTimeoutMs: 800,
        receiptTimeoutMs: 5_000,
        ...extra,
      });
      batchers.push(b);
      return b;
    },
    head: () => direct.head(),
    async close() {
      for (const b of batchers) await b.stop();
      await exchange.close();
      await proxy.close();
      await db.close();
      await chain.stop();
    },
  };
}

/** Trades k..k+count-1 (two orders each); returns how many fills the acknowledged answers carried. */
export async function trade(ex: Exchange, from: number, count: number): Promise<{ acknowledged: number; fills: number }> {
  let fills = 0;
  let acknowledged = 0;
  for (let k = from; k < from + count; k++) {
    for (const c of tradeCommands(k, TRADERS)) {
      const r = expectAccepted(await ex.submit(c));
      acknowledged++;
      fills += r.ops.filter((o) => o.type === "MATCH").length;
    }
  }
  return { acknowledged, fills };
}

/** Polls `check` every 50 ms until it is truthy or `ms` passed. */
export async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ChainFigures {
  batches: number;
  noncesSkipped: number;
  noncesDoubled: number;
  ordersLost: number;
  ordersDoubled: number;
  rootOk: boolean;
}

/**
 * What the chain holds against what was acknowledged: the JournalBatchCommitted nonces must be exactly 1..n (none
 * skipped, none twice), the last batch must cover the whole journal, every acknowledged order's clientOrderId must be in
 * the journal exactly once, and the decoder's replay of the chain must give the engine's root.
 */
export async function chainFigures(rig: ChainRig, acknowledgedOrderIds: string[]): Promise<ChainFigures> {
  const events = await rig.client.getContractEvents({
    address: rig.ledger,
    abi: committedLedgerAbi,
    eventName: "JournalBatchCommitted",
    fromBlock: 0n,
    toBlock: "latest",
  });
  const nonces = events.map((e) => e.args.nonce as bigint);
  const seen = new Map<bigint, number>();
  for (const n of nonces) seen.set(n, (seen.get(n) ?? 0) + 1);
  const max = nonces.reduce((a, b) => (b > a ? b : a), 0n);
  let skipped = 0;
  for (let n = 1n; n <= max; n++) if (!seen.has(n)) skipped++;
  const doubled = [...seen.values()].filter((c) => c > 1).length;
  // Orders of the journal by clientOrderId.
  const inJournal = new Map<string, number>();
  for await (const e of readAll(rig.db)) {
    const cmd = JSON.parse(e.command) as { type: string; clientOrderId?: string };
    if (cmd.type === "placeOrder" && cmd.clientOrderId) inJournal.set(cmd.clientOrderId, (inJournal.get(cmd.clientOrderId) ?? 0) + 1);
  }
  const lost = acknowledgedOrderIds.filter((id) => !inJournal.has(id)).length;
  const ordersDoubled = [...inJournal.values()].filter((c) => c > 1).length;
  const report = await replayLedger({ client: rig.client, ledger: rig.ledger });
  const head = await rig.head();
  const engineRoot = await rig.exchange.engine.ledger.root();
  const rootOk = report.mismatch === null && (await report.state.root()) === head.root && head.root === engineRoot;
  return { batches: nonces.length, noncesSkipped: skipped, noncesDoubled: doubled, ordersLost: lost, ordersDoubled, rootOk };
}

/** clientOrderIds of trades from..from+count-1, as `trade` places them. */
export function orderIds(from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => tradeCommands(from + i, TRADERS).map((c) => (c as { clientOrderId: string }).clientOrderId)).flat();
}

/** Every batch row confirmed and the last one covering the journal's last entry. */
export async function assertAllPublished(rig: ChainRig, b: Batcher): Promise<void> {
  const rows = await b.batches(1000);
  for (const r of rows) assert.equal(r.status, "confirmed", `batch ${r.nonce} is ${r.status}`);
  assert.equal(rows[0]?.lastSeq, rig.exchange.nextSeq - 1, "the last batch covers the whole journal");
}
