/** Shared fixtures of the engine tests. */
import assert from "node:assert/strict";
import type { Address } from "viem";
import { applyOps, decodePayload, encodePayload, LedgerState, type JournalOp } from "../../decoder";
import { Engine } from "./engine";
import { snapshotFromParts, snapshotParts } from "./snapshot";
import type { Accepted, Applied, Command, EngineConfig, OrderSpec, RejectCode, Rejected } from "./types";

export const TREASURY = ("0x" + "7".repeat(40)) as Address;
export const A = ("0x" + "a".repeat(40)) as Address;
export const B = ("0x" + "b".repeat(40)) as Address;
export const C = ("0x" + "c".repeat(40)) as Address;
export const PM = 1_000_000n;
export const SHARE = 1_000_000n;
export const M = 1n;

/** Asserts `r` is a rejection with `code` (and a message matching `pattern`); returns it. */
export function rejects<K extends RejectCode>(r: Applied, code: K, pattern?: RegExp): Rejected<K> {
  if (r.ok) assert.fail(`expected ${code}, the command was accepted`);
  assert.equal(r.code, code, r.message);
  if (pattern) assert.match(r.message, pattern);
  return r as Rejected<K>;
}

export function config(over: Partial<EngineConfig["allowance"]> = {}): EngineConfig {
  return { treasury: TREASURY, allowance: { enabled: false, freePerPeriod: 100, periodMs: 7 * 86_400_000, ...over } };
}

/** An engine with market 1 (notional-v1, taker fee `fee` bps) and funded accounts A, B, C. */
export function setup(
  opts: { fee?: number; feeModel?: "notional-v1" | "shares-v2"; allowance?: Partial<EngineConfig["allowance"]>; funds?: bigint; keepFinished?: number } = {},
) {
  const e = new Engine({ ...config(opts.allowance), ...(opts.keepFinished !== undefined ? { keepFinished: opts.keepFinished } : {}) });
  const ops: JournalOp[] = [];
  let at = 1_000;
  /** Applies a command; its ops join `ops` when accepted. */
  const attempt = <C extends Command>(c: C, when = at): Applied<C> => {
    const r = e.apply(c, when);
    if (r.ok) ops.push(...r.ops);
    return r;
  };
  /** Applies a command that must be accepted. */
  const run = <C extends Command>(c: C, when = at): Accepted<C> => {
    const r = attempt(c, when);
    if (!r.ok) assert.fail(`${c.type} refused: ${r.code} ${r.message}`);
    return r;
  };
  for (const acct of [A, B, C]) {
    run({ type: "openAccount", account: acct, signupAt: 0 });
    run({ type: "credit", account: acct, amount: opts.funds ?? 1_000n * PM, reason: "GRANT" });
  }
  run({
    type: "createMarket",
    marketId: M,
    pricing: "ORDERBOOK",
    outcomes: 2,
    feeModel: opts.feeModel ?? "notional-v1",
    takerFeeBps: opts.fee ?? 0,
    sellExitFeeBps: 0,
    winningsExitFeeBps: 0,
  });
  type Spec = Partial<OrderSpec> & Pick<OrderSpec, "outcome" | "action" | "priceBps" | "size">;
  const order = (account: Address, spec: Spec) => ({ type: "placeOrder" as const, account, marketId: M, tif: "GTC" as const, ...spec });
  return {
    e,
    ops,
    run,
    attempt,
    /** Places an order on market 1 (GTC unless `spec` says otherwise) that must be accepted. */
    place: (account: Address, spec: Spec, when = at) => run(order(account, spec), when),
    /** The same, answering a refusal as its value. */
    tryPlace: (account: Address, spec: Spec, when = at) => attempt(order(account, spec), when),
    tick: (ms: number) => (at += ms),
    now: () => at,
  };
}

/**
 * A copy of `e` through its snapshot texts (what a restart restores), cut into parts of 3 records so that every list
 * spans parts; the copy must snapshot to the same texts.
 */
export function restored(e: Engine): Engine {
  const parts = e.snapshot();
  const copy = Engine.fromSnapshot(e.config, snapshotParts(snapshotFromParts(parts), 3));
  assert.deepEqual(copy.snapshot(), parts, "a restored engine snapshots to the same texts");
  // What the snapshot text does not hold but derives: the markets' links to their lifecycles, the ledger mirror.
  for (const lc of e.lifecycles()) assert.deepEqual(copy.market(BigInt(lc.marketId)), e.market(BigInt(lc.marketId)), `market ${lc.marketId}`);
  assert.deepEqual(copy.ledger.entries(), e.ledger.entries(), "the ledger mirror");
  return copy;
}

/**
 * The root an auditor gets: the ops go through the PMJ5 wire format (encoded in batches of `batch` ops, decoded
 * back) and are applied from an empty ledger by the decoder.
 */
export async function replayRoot(ops: JournalOp[], batch = 500): Promise<string> {
  const s = new LedgerState();
  for (let i = 0; i < ops.length; i += batch) {
    const decoded = decodePayload(encodePayload(ops.slice(i, i + batch), { treasury: TREASURY }));
    applyOps(s, decoded.ops, { treasury: decoded.treasury });
  }
  return s.root();
}
