/**
 * Fault: the chain's RPC is down while trading goes on (issue 19). A real Hardhat node sits behind a TCP proxy; the
 * proxy is cut for FAULT_CHAIN_OUTAGE_MS (default 4 s here; set 60000 for the full minute), first refusing
 * connections, then as a black hole that swallows requests (a partition: every RPC call runs into its timeout).
 * Meanwhile every order is acknowledged and its fills paid (the engine's balances move at once); the batcher keeps
 * its one open batch and the journal queues behind it. After the RPC returns, everything is committed in order:
 * chain nonces 1..n once each, the last batch covers the journal, and the replayed root equals the engine's.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { assertAllPublished, chainFigures, openChainRig, orderIds, trade, TRADERS, until, type ChainRig } from "./chain-support";
import { traderOf } from "../../relayer/exchange/trading-run";

const OUTAGE_MS = Number(process.env.FAULT_CHAIN_OUTAGE_MS ?? 4_000);

describe("fault: chain RPC down while trading goes on", () => {
  let rig: ChainRig;
  before(async () => {
    rig = await openChainRig();
  });
  after(async () => {
    await rig?.close();
  });

  it("pays fills during the outage, queues the batches and commits them in order afterwards", async () => {
    const batcher = await rig.batcher(
      process.env.FAULT_DEBUG
        ? {
            log: {
              info: (o, m) => console.error(m, JSON.stringify(o)),
              warn: (o, m) => console.error(m, JSON.stringify(o)),
              error: (o, m) => console.error(m, String((o as { err?: unknown }).err)),
            },
          }
        : {},
    );
    batcher.start();
    const ids: string[] = [];
    let k = 0;
    // Before: trading with the chain up; everything lands.
    await trade(rig.exchange, k, 20);
    ids.push(...orderIds(k, 20));
    k += 20;
    await until("the first batches on chain", async () => (await rig.head()).nonce > 0n && (await batcher.batches(1))[0]?.status === "confirmed");
    const nonceBefore = (await rig.head()).nonce;

    // The outage: half refused connections, half a black hole.
    await rig.proxy.cut("refuse");
    const started = performance.now();
    let during = { acknowledged: 0, fills: 0 };
    let balanceMoves = 0;
    const payer = traderOf(1);
    while (performance.now() - started < OUTAGE_MS) {
      if (rig.proxy.state === "refuse" && performance.now() - started > OUTAGE_MS / 2) await rig.proxy.cut("blackhole");
      const before = rig.exchange.engine.ledger.accountEntries(payer).find((e) => e.assetId === 0n)?.balance;
      const r = await trade(rig.exchange, k, 5);
      const afterBal = rig.exchange.engine.ledger.accountEntries(payer).find((e) => e.assetId === 0n)?.balance;
      if (before !== afterBal) balanceMoves++;
      during = { acknowledged: during.acknowledged + r.acknowledged, fills: during.fills + r.fills };
      ids.push(...orderIds(k, 5));
      k += 5;
      await new Promise((r) => setTimeout(r, 100));
    }
    const chainDuring = (await rig.head()).nonce;
    const rows = await batcher.batches(1000);
    const open = rows.filter((r) => r.status !== "confirmed");
    const unpublishedEntries = rig.exchange.nextSeq - 1 - (rows.find((r) => r.status === "confirmed")?.lastSeq ?? 0);
    assert.ok(during.fills > 0, "fills were paid during the outage");
    assert.ok(balanceMoves > 0, "balances moved during the outage");
    assert.ok(chainDuring <= nonceBefore + 1n, "at most the batch in flight when the RPC went down landed");
    assert.ok(open.length <= 1, `one open batch at a time, found ${open.length}`);
    assert.ok(
      open.every((r) => r.error),
      "the open batch records why it has not landed",
    );
    assert.ok(unpublishedEntries > 0, "journal entries queue behind the open batch");

    // Back up: everything commits in order.
    await rig.proxy.restore();
    const restored = performance.now();
    await until(
      "the journal published",
      async () => {
        const [last] = await batcher.batches(1);
        return last?.status === "confirmed" && last.lastSeq === rig.exchange.nextSeq - 1;
      },
      60_000,
    ).catch(async (err) => {
      console.error(
        JSON.stringify({
          halted: String(batcher.halted),
          rows: (await batcher.batches(5)).map((r) => [String(r.nonce), r.status, r.lastSeq, r.error]),
          next: rig.exchange.nextSeq,
          head: String((await rig.head()).nonce),
        }),
      );
      throw err;
    });
    const catchUpMs = Math.round(performance.now() - restored);
    await batcher.stop();
    await assertAllPublished(rig, batcher);
    const figures = await chainFigures(rig, ids);
    console.log(
      JSON.stringify({
        fault: "chain-outage",
        outageMs: OUTAGE_MS,
        traders: TRADERS,
        ordersDuringOutage: during.acknowledged,
        fillsPaidDuringOutage: during.fills,
        entriesQueued: unpublishedEntries,
        catchUpMs,
        ...figures,
      }),
    );
    assert.equal(figures.noncesSkipped, 0);
    assert.equal(figures.noncesDoubled, 0);
    assert.equal(figures.ordersLost, 0);
    assert.equal(figures.ordersDoubled, 0);
    assert.equal(figures.rootOk, true);
    assert.equal(BigInt(figures.batches), (await rig.head()).nonce);
  });
});
