/**
 * Fault: the indexer killed and restarted (issue 19). A real Hardhat node with the full deployment, a real Ponder
 * process on it, and the service with its batcher publishing the journal to the CommittedLedger while trades go on.
 * The indexer's whole process group is SIGKILLed (an OOM kill, a crashed host process); batches keep landing on
 * chain meanwhile, and `GET /health/projection` must say `fresh: false` with a lag that grows. Ponder is then
 * started again on the same database and schema (its crash recovery waits out the dead instance's lock, at most
 * 25 s after its last heartbeat); it must catch up: `fresh: true` again, and the batches the API's projection reader
 * returns are exactly the chain's, nonces 1..n once each.
 *
 * FAULT_INDEXER_DOWN_MS (default 5000) is how long the indexer stays down after the API noticed; with DATABASE_URL
 * Ponder and the service run on Postgres (the API reads the views schema), otherwise on PGlite (read through Ponder).
 */
import { strict as assert } from "node:assert";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createPublicClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { loadConfig } from "../../api/config";
import type { ProjectionFreshness } from "../../api/domain/onchain/freshness";
import { startService, type RunningService } from "../../api/service";
import { committedLedgerAbi } from "../../generated/abis";
import { LedgerChain } from "../../relayer/batcher/chain";
import { deployAll } from "../../relayer/deploy";
import { DEV_DEPLOYER_KEY, DEV_OPERATOR_KEY, DEV_TREASURY_ADDRESS } from "../../relayer/dev-accounts";
import { expectAccepted, setupCommands, tradeCommands } from "../../relayer/exchange/trading-run";
import { freePort } from "../support/ports";
import { startLocalChain } from "../../scripts/stack/chain";
import { startChild, stopChild, type Child } from "../../scripts/stack/children";
import { ponderCommand, removeStackState } from "../support/stack/onchain";
import { until } from "./chain-support";

const ROOT = join(__dirname, "..", "..");
const DOWN_MS = Number(process.env.FAULT_INDEXER_DOWN_MS ?? 5_000);
const TRADERS = 4;
const DEBUG = Boolean(process.env.FAULT_DEBUG);

interface Rig {
  chainId: number;
  rpcUrl: string;
  ponderUrl: string;
  ledger: Address;
  svc: RunningService;
  /** Starts Ponder on the rig's database and schema (again after a kill: same directory, same schema). */
  startIndexer(): Promise<Child>;
  indexer: Child | null;
  stop(): Promise<void>;
}

async function openRig(): Promise<Rig> {
  const databaseUrl = process.env.DATABASE_URL;
  const chainId = 910_000 + Math.floor(Math.random() * 80_000);
  const [chainPort, ponderPort] = [await freePort(), await freePort()];
  const rpcUrl = `http://127.0.0.1:${chainPort}`;
  const dir = mkdtempSync(join(tmpdir(), "fault-indexer-"));
  const children: Child[] = [];
  let svc: RunningService | undefined;
  const rig: Rig = {
    chainId,
    rpcUrl,
    ponderUrl: `http://127.0.0.1:${ponderPort}`,
    ledger: "0x" as Address,
    svc: undefined as unknown as RunningService,
    indexer: null,
    async startIndexer() {
      const { args, env } = ponderCommand({ ponderPort, chainId, rpcUrl, dir, databaseUrl, pollingMs: 100, logLevel: DEBUG ? "info" : "warn" });
      const child = startChild("indexer", process.execPath, args, { cwd: ROOT, env, quiet: !DEBUG });
      children.push(child);
      rig.indexer = child;
      let exit: number | string | undefined;
      void child.exited.then((c) => (exit = c));
      await until(
        "Ponder /ready",
        async () => {
          if (exit !== undefined) throw new Error(`the indexer exited (${exit}) before it was ready`);
          return fetch(`http://127.0.0.1:${ponderPort}/ready`).then(
            (r) => r.ok,
            () => false,
          );
        },
        180_000,
      );
      return child;
    },
    async stop() {
      await svc?.close();
      for (const c of children.reverse()) await stopChild(c);
      await removeStackState(databaseUrl, chainId, dir);
    },
  };
  try {
    children.push(await startLocalChain({ port: chainPort, chainId }));
    const deployment = await deployAll({
      rpcUrl,
      deployerKey: DEV_DEPLOYER_KEY as Hex,
      operatorAddress: privateKeyToAccount(DEV_OPERATOR_KEY as Hex).address,
      treasuryAddress: DEV_TREASURY_ADDRESS.toLowerCase() as Address,
    });
    rig.ledger = deployment.contracts.CommittedLedger!.address as Address;
    await rig.startIndexer();
    svc = await startService(
      loadConfig({
        PORT: "0",
        DATA_DIR: join(dir, "api"),
        LOG_LEVEL: DEBUG ? "info" : "silent",
        CHAIN_ID: String(chainId),
        RPC_URL: rpcUrl,
        PONDER_PORT: String(ponderPort),
        DATABASE_URL: databaseUrl,
        DATABASE_SCHEMA: databaseUrl ? `t_api_${chainId}` : undefined,
        SEED_DEMO_MARKETS: "false",
        BATCH_INTERVAL_MS: "300",
        RATE_LIMIT_IP_PER_MINUTE: "1000000",
        RATE_LIMIT_READ_PER_MINUTE: "1000000",
      }),
      // The service's batcher publishes the journal to the stack's CommittedLedger, as `npm start` does.
      { publish: true, redisPrefix: `t-fault-indexer-${chainId}:` },
    );
    rig.svc = svc;
    return rig;
  } catch (err) {
    await rig.stop();
    throw err;
  }
}

/** True once no process of the group `pgid` is left. */
function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch {
    return true;
  }
}

describe("fault: the indexer killed and restarted", () => {
  let rig: Rig;
  before(async () => {
    rig = await openRig();
  });
  after(async () => {
    await rig?.stop();
  });

  it("reports fresh: false with a growing lag while the indexer is down, then catches up to the chain's batches", async () => {
    const { svc } = rig;
    const exchange = svc.services.venue.exchange;
    assert.ok(svc.services.venue.batcher, "the service publishes to the stack's CommittedLedger");
    const chain = new LedgerChain(rig.rpcUrl, rig.ledger, DEV_OPERATOR_KEY as Hex);
    const client = createPublicClient({ transport: http(rig.rpcUrl) });
    const reader = svc.services.onchain.reader;
    const freshness = async (): Promise<ProjectionFreshness> => {
      const res = await fetch(`${svc.baseUrl}/health/projection`);
      assert.equal(res.status, 200);
      return (await res.json()) as ProjectionFreshness;
    };
    /** Nonce of the newest batch the API's projection reader returns (0 when none). */
    const projectedNonce = async () => BigInt((await reader.ledgerBatches(1).catch(() => []))[0]?.nonce ?? 0);

    // Trading goes on throughout: two orders every 150 ms, a fill each; the batcher commits every 300 ms.
    for (const c of setupCommands(TRADERS, svc.ctx.clock.now())) expectAccepted(await exchange.submit(c));
    let trading = true;
    let k = 0;
    const trader = (async () => {
      while (trading) {
        for (const c of tradeCommands(k, TRADERS)) expectAccepted(await exchange.submit(c));
        k++;
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    try {
      // Before: batches land and the projection follows them.
      await until("three batches projected and fresh", async () => (await projectedNonce()) >= 3n && (await freshness()).fresh, 60_000);

      // The kill: SIGKILL to the indexer's whole process group, no warning.
      const indexer = rig.indexer!;
      const pgid = indexer.proc.pid!;
      const nonceAtKill = (await chain.head()).nonce;
      const killedAt = performance.now();
      process.kill(-pgid, "SIGKILL");
      await indexer.exited;
      await until("the indexer's process group gone", async () => groupGone(pgid), 5_000);

      // Meanwhile: not fresh, and the lag grows while batches keep landing.
      const firstStale = await until(
        "freshness fresh: false, the indexer unreachable",
        async () => {
          // The first answer that measured the dead indexer (not one cached from before the kill).
          const f = await freshness();
          return !f.fresh && f.error ? f : null;
        },
        10_000,
      );
      const notFreshAfterMs = Math.round(performance.now() - killedAt);
      const samples: ProjectionFreshness[] = [firstStale];
      const downUntil = performance.now() + DOWN_MS;
      while (performance.now() < downUntil) {
        await new Promise((r) => setTimeout(r, 500));
        samples.push(await freshness());
      }
      const nonceBeforeRestart = (await chain.head()).nonce;
      for (const f of samples) {
        assert.equal(f.fresh, false, `fresh while the indexer is down: ${JSON.stringify(f)}`);
        const [cursor] = f.cursors;
        assert.equal(cursor?.healthy, false);
        assert.equal(cursor?.chainId, rig.chainId);
        assert.ok(cursor?.lagSeconds !== null && cursor?.lagSeconds !== undefined, `lag reported while down: ${JSON.stringify(f)}`);
        assert.equal(cursor?.blockNumber, firstStale.cursors[0]?.blockNumber, "the last block the indexer reported");
        assert.match(f.error ?? "", /indexer/);
      }
      const lags = samples.map((f) => f.cursors[0]!.lagSeconds!);
      const heads = samples.map((f) => BigInt(f.cursors[0]!.headBlockNumber!));
      assert.ok(lags.at(-1)! > lags[0]!, `the lag grows while the indexer is down: ${lags.join(", ")}`);
      assert.ok(heads.at(-1)! > heads[0]!, "the chain moved on meanwhile");
      assert.ok(nonceBeforeRestart > nonceAtKill, "batches were committed while the indexer was down");

      // The restart, on the same database and schema; trading still goes on while it catches up.
      const restartedAt = performance.now();
      const downMs = Math.round(restartedAt - killedAt);
      await rig.startIndexer();
      const readyMs = Math.round(performance.now() - restartedAt);
      await until(
        "freshness back and the batches committed before the restart projected",
        async () => (await projectedNonce()) >= nonceBeforeRestart && (await freshness()).fresh,
        120_000,
      );
      const catchUpMs = Math.round(performance.now() - restartedAt);

      // Trading stops; the batcher publishes the tail; the projection holds exactly the chain's batches.
      trading = false;
      await trader;
      await until(
        "the journal published",
        async () => {
          const [last] = await svc.services.venue.batcher!.batches(1);
          return last?.status === "confirmed" && last.lastSeq === exchange.nextSeq - 1;
        },
        60_000,
      );
      const chainNonce = (await chain.head()).nonce;
      await until("the projection at the chain's last batch", async () => (await projectedNonce()) === chainNonce && (await freshness()).fresh, 60_000).catch(
        async (err) => {
          const ponder = await fetch(`${rig.ponderUrl}/ledger/batches?limit=1`).then((r) => r.text(), String);
          console.error(JSON.stringify({ chainNonce: String(chainNonce), projected: String(await projectedNonce()), ponder, freshness: await freshness() }));
          throw err;
        },
      );
      const events = await client.getContractEvents({ address: rig.ledger, abi: committedLedgerAbi, eventName: "JournalBatchCommitted", fromBlock: 0n });
      const onChain = events.map((e) => e.args.nonce!.toString());
      const projected = (await reader.ledgerBatches(500)).map((b) => b.nonce).reverse();
      const projectedSet = new Set(projected);
      const figures = {
        fault: "indexer-restart",
        database: process.env.DATABASE_URL ? "postgres" : "pglite",
        notFreshAfterMs,
        downMs,
        lagSecondsMax: Math.max(...lags),
        batchesWhileDown: Number(nonceBeforeRestart - nonceAtKill),
        readyMs,
        catchUpMs,
        batches: onChain.length,
        batchesProjected: projected.length,
        batchesMissing: onChain.filter((n) => !projectedSet.has(n)).length,
        batchesDoubled: projected.length - projectedSet.size,
      };
      console.log(JSON.stringify(figures));
      assert.ok(onChain.length < 500, "the comparison reads at most 500 projected batches");
      assert.equal(BigInt(onChain.length), chainNonce, "chain nonces 1..n");
      assert.deepEqual(projected, onChain, "the projection holds the chain's batches, in order, once each");
      assert.equal(figures.batchesMissing, 0);
      assert.equal(figures.batchesDoubled, 0);
    } finally {
      trading = false;
      await trader.catch(() => {});
    }
  });
});
