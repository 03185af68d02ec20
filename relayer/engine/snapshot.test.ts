/**
 * Engine snapshots (./snapshot.ts): what the property tests do not reach. The property tests restore random states
 * and check every later answer; here, the order numbers' window after it has moved (orders held below `base`), and
 * the snapshots that must not be restored.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { stringifyJson } from "../../decoder";
import { Engine } from "./engine";
import { SnapshotError, snapshotFromParts, snapshotParts } from "./snapshot";
import { A, B, M, SHARE, config, restored, setup } from "./test-helpers";
import type { Command } from "./types";

describe("engine snapshots", () => {
  it("restore the orders held below the window's base: a resting order, a kept finished one, their clientOrderIds", () => {
    const s = setup({ keepFinished: 2 });
    const old = s.place(A, { outcome: 0, action: "buy", priceBps: 4_000, size: 2n * SHARE, clientOrderId: "old" }).result.orderId;
    const gtd = s.place(B, { outcome: 1, action: "buy", priceBps: 3_000, size: SHARE, tif: "GTD", expiresAt: 50_000 }).result.orderId;
    const kept = s.place(B, { outcome: 0, action: "buy", priceBps: 100, size: SHARE, tif: "IOC", clientOrderId: "kept" }).result.orderId;
    // 131,072 orders move the window once (./retention.ts CHUNK): A's IOCs finish at once and are forgotten.
    for (let i = 0; i < 131_100; i++) s.place(A, { outcome: 0, action: "buy", priceBps: 100, size: SHARE, tif: "IOC" });
    const { base } = JSON.parse(s.e.snapshot()[0]!) as { base: number };
    assert.ok(base > Number(kept.slice(2)), `the window starts at ${base}`);
    const copy = restored(s.e);
    for (const id of [old, gtd, kept]) assert.deepEqual(copy.order(id), s.e.order(id));
    assert.equal(copy.orderByClientId(B, "kept")?.orderId, kept);
    const next: [Command, number][] = [
      [{ type: "placeOrder", account: B, marketId: M, outcome: 1, action: "buy", priceBps: 6_100, size: SHARE, tif: "GTC" }, 1_000],
      [{ type: "cancelOrder", account: A, clientOrderId: "old" }, 1_000],
      [{ type: "placeOrder", account: B, marketId: M, outcome: 0, action: "buy", priceBps: 100, size: SHARE, tif: "IOC", clientOrderId: "kept" }, 1_000],
      [{ type: "expireOrders" }, 50_000],
    ];
    for (const [c, at] of next) {
      const r = s.e.apply(c, at);
      assert.ok(r.ok, `${c.type}: ${r.ok ? "" : r.message}`);
      assert.equal(stringifyJson(copy.apply(c, at)), stringifyJson(r), c.type);
    }
    assert.equal(copy.order(gtd)?.status, "expired");
    assert.deepEqual(copy.snapshot(), s.e.snapshot());
  });

  it("are refused under another engine configuration or layout version, with a part missing, or not fitting together", () => {
    const s = setup();
    s.place(A, { outcome: 0, action: "buy", priceBps: 4_000, size: SHARE });
    const x = snapshotFromParts(s.e.snapshot());
    const parts = snapshotParts(x);
    assert.throws(() => Engine.fromSnapshot({ ...config(), keepFinished: 7 }, parts), SnapshotError);
    assert.throws(() => Engine.fromSnapshot(config({ enabled: true }), parts), /configuration/);
    assert.throws(() => Engine.fromSnapshot(s.e.config, snapshotParts({ ...x, version: 0 })), /version 0/);
    assert.throws(() => Engine.fromSnapshot(s.e.config, parts.slice(0, -1)), /the head says/);
    const broken = structuredClone(x);
    broken.markets[0]!.bids.push([10, [999]]);
    assert.throws(() => Engine.fromSnapshot(s.e.config, snapshotParts(broken)), /order 999/);
  });
});
