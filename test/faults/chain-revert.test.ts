/**
 * Faults: a reverted commit and a duplicate submit (issue 19), on a real Hardhat node.
 *  - Reverted: the batcher's commitJournalBatch is in the node's mempool (automine off) when the ledger's code is
 *    swapped for one that reverts; the block mines it as a revert. The batcher sees the reverted receipt, backs off,
 *    re-reads the head (still the predecessor), sends the same bytes again, and that lands: one batch, no nonce lost.
 *  - Duplicate: the same batch is sent again after it landed (refused by the contract's expectedNonce, nothing
 *    changes), and two batchers on one database drive the same open batch at once (two processes after a botched
 *    fail-over): one transaction lands, both rows end confirmed with it, the chain holds the nonce once.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import type { Hex } from "viem";
import { LedgerChain } from "../../relayer/batcher/chain";
import { OPERATOR_KEY } from "../../scripts/stack/chain";
import { chainFigures, openChainRig, orderIds, trade, until, type ChainRig } from "./chain-support";

describe("faults: a reverted commit and a duplicate submit", () => {
  let rig: ChainRig;
  const ids: string[] = [];
  let k = 0;
  const tradeSome = async (n: number) => {
    await trade(rig.exchange, k, n);
    ids.push(...orderIds(k, n));
    k += n;
  };
  const rpc = (method: string, params: unknown[] = []) => rig.client.request({ method: method as never, params: params as never });

  before(async () => {
    rig = await openChainRig();
  });
  after(async () => {
    await rig?.close();
  });

  it("a commit mined as a revert is sent again and lands once", async () => {
    const batcher = await rig.batcher();
    await tradeSome(5);
    assert.equal((await batcher.publishOnce())?.status, "confirmed");
    await tradeSome(5);
    const code = (await rpc("eth_getCode", [rig.ledger, "latest"])) as Hex;
    await rpc("evm_setAutomine", [false]);
    const publishing = batcher.publishOnce();
    const sent = await until("the commit in the mempool", async () => {
      const [row] = await batcher.batches(1);
      return row?.status === "sent" ? row : null;
    });
    await rpc("hardhat_setCode", [rig.ledger, "0x60006000fd"]); // PUSH1 0 PUSH1 0 REVERT
    await rpc("evm_mine");
    await rpc("hardhat_setCode", [rig.ledger, code]);
    await rpc("evm_setAutomine", [true]);
    const reverted = await rig.client.getTransactionReceipt({ hash: sent.txHash as Hex });
    assert.equal(reverted.status, "reverted");
    const landed = await publishing;
    assert.equal(landed?.status, "confirmed");
    assert.equal(landed?.nonce, sent.nonce);
    assert.notEqual(landed?.txHash, sent.txHash, "a second transaction carried the batch");
    assert.equal(landed?.attempts, 2);
    assert.equal((await rig.head()).nonce, sent.nonce);
    const figures = await chainFigures(rig, ids);
    console.log(JSON.stringify({ fault: "reverted-commit", revertedTx: sent.txHash, attempts: landed?.attempts, ...figures }));
    assert.deepEqual([figures.noncesSkipped, figures.noncesDoubled, figures.ordersLost, figures.ordersDoubled, figures.rootOk], [0, 0, 0, 0, true]);
  });

  it("a duplicate submit changes nothing: resending a landed batch, and two batchers on one open batch", async () => {
    const direct = new LedgerChain(rig.chain.rpcUrl, rig.ledger, OPERATOR_KEY);
    const [last] = await (await rig.batcher()).batches(1);
    const headBefore = await rig.head();
    await assert.rejects(direct.send(last), "the contract refuses a second commit of a landed nonce");
    assert.deepEqual(await rig.head(), headBefore);

    // Two batchers, one open batch: A builds it while the RPC is down and waits; B opens on the same rows.
    await tradeSome(5);
    await rig.proxy.cut("refuse");
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const a = await rig.batcher({ sleep: () => gate });
    const aRun = a.publishOnce();
    const open = await until("A's open batch", async () => {
      const [row] = await a.batches(1);
      return row && row.nonce === last.nonce + 1n ? row : null;
    });
    const b = await rig.batcher();
    await rig.proxy.restore();
    release();
    const [ra, rb] = await Promise.all([aRun, b.publishOnce()]);
    assert.equal(ra?.nonce, open.nonce);
    assert.equal(rb?.nonce, open.nonce);
    assert.equal(ra?.status, "confirmed");
    assert.equal(rb?.status, "confirmed");
    const [row] = await b.batches(1);
    assert.equal(row.status, "confirmed");
    assert.equal(row.txHash, ra?.txHash ?? row.txHash);
    assert.equal((await rig.head()).nonce, open.nonce);
    const figures = await chainFigures(rig, ids);
    console.log(JSON.stringify({ fault: "duplicate-submit", resendRefused: true, concurrentBatchers: 2, landedTx: row.txHash, ...figures }));
    assert.deepEqual([figures.noncesSkipped, figures.noncesDoubled, figures.ordersLost, figures.ordersDoubled, figures.rootOk], [0, 0, 0, 0, true]);
  });
});
