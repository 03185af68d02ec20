/**
 * The journal's JSON codec: every operation type of the PMJ5 dictionary (OP_TAGS) and every command type round-trips
 * exactly, bigints included, so a stored entry always revives to what was written (a type the field lists miss would
 * come back with a string where a bigint was).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { CreditReason, OP_TAGS, stringifyJson, type JournalOp } from "../../decoder";
import { opArb } from "../../decoder/test-support/arbitraries";
import { COMPACT_OPS_MIN, commandFromJson, commandToJson, opsFromJson, opsToJson, sameOps } from "./json";
import { A, B, C, M, TREASURY } from "./test-helpers";
import type { Command, CommandType } from "./types";

const spec = { outcome: 0, action: "buy", priceBps: 5000, size: 10_000n, tif: "GTD", expiresAt: 9, clientOrderId: "c", postOnly: true } as const;

/** One command of each type, with every bigint field it can carry (the Record makes a new type add its sample). */
const COMMANDS: Record<CommandType, Command> = {
  openAccount: { type: "openAccount", account: A, signupAt: 1 },
  credit: { type: "credit", account: A, amount: 10n ** 30n, reason: "GRANT" },
  createMarket: {
    type: "createMarket",
    marketId: 2n ** 64n - 1n,
    pricing: "LMSR",
    outcomes: 3,
    feeModel: "shares-v2",
    takerFeeBps: 1,
    sellExitFeeBps: 2,
    winningsExitFeeBps: 3,
    seed: 5n,
    funder: A,
    creator: A,
    openTime: 1,
    closeTime: 2,
    lane: "onchain",
  },
  placeOrder: { type: "placeOrder", account: A, marketId: M, ...spec },
  placeOrders: { type: "placeOrders", account: A, marketId: M, orders: [spec, { ...spec, size: 20_000n }] },
  replaceQuotes: { type: "replaceQuotes", account: A, marketId: M, orders: [spec] },
  cancelOrder: { type: "cancelOrder", account: A, orderId: "o-1" },
  cancelAll: { type: "cancelAll", account: A, marketId: M },
  resolveMarket: { type: "resolveMarket", marketId: M, winningOutcome: 1 },
  voidMarket: { type: "voidMarket", marketId: M },
  addFillCredits: { type: "addFillCredits", account: A, fills: 3 },
  expireOrders: { type: "expireOrders" },
  lmsrTrade: { type: "lmsrTrade", account: A, marketId: M, outcome: 2, direction: "BUY", shares: 7n, budget: 8n, limit: 9n },
  advanceLifecycle: { type: "advanceLifecycle" },
  proposeOutcome: { type: "proposeOutcome", account: A, marketId: M, outcome: "void" },
  challenge: { type: "challenge", account: A, marketId: M },
  declareMia: { type: "declareMia", account: A, marketId: M },
  castBallot: { type: "castBallot", account: A, marketId: M, outcome: 1, salt: `0x${"ab".repeat(32)}` },
  councilAct: { type: "councilAct", member: A, marketId: M, action: "decide", outcome: 0, signature: "0x1234" },
  setCouncil: { type: "setCouncil", members: [A] },
  collectCreatorFunds: { type: "collectCreatorFunds", account: A, marketId: M },
  cancelMarket: { type: "cancelMarket", marketId: M },
};

describe("journal JSON codec", () => {
  it("round-trips every operation type of OP_TAGS exactly", () => {
    const ops = fc.sample(opArb(), { numRuns: 3_000, seed: 20_261_125 });
    const seen = new Set<JournalOp["type"]>();
    for (const op of ops) {
      assert.deepEqual(opsFromJson(opsToJson([op])), [{ ...op }], op.type); // fast-check records may have a null prototype
      seen.add(op.type);
    }
    assert.deepEqual([...seen].sort(), Object.keys(OP_TAGS).sort(), "the sample covers every operation type");
  });

  it("stores a large op list as one PMJ5 payload that revives to the same ops, and compares either stored form", () => {
    const ops = fc.sample(opArb(), { numRuns: 3_000, seed: 20_261_127 }).map((op) => ({ ...op }));
    assert.ok(ops.length >= COMPACT_OPS_MIN);
    const text = opsToJson(ops);
    assert.match(text, /^\{"pmj5":"[A-Za-z0-9+/]+=*"\}$/);
    assert.ok(text.length < stringifyJson(ops).length / 2, "the compact form is the smaller one");
    assert.deepEqual(opsFromJson(text), ops);
    assert.ok(sameOps(text, ops));
    // An entry stored as an array (written before the compact form existed) still compares, as an array.
    assert.ok(sameOps(stringifyJson(ops), ops));
    const changed = ops.slice(0, -1);
    assert.equal(sameOps(text, changed), false);
    assert.equal(sameOps(stringifyJson(ops), changed), false);
    // An op PMJ5 cannot carry keeps the whole entry in the array form (the engine applied it: it must be stored).
    const odd = [...ops, { type: "CREDIT", account: A, assetId: 0n, amount: 0n, reason: 0 } as JournalOp];
    assert.match(opsToJson(odd), /^\[/);
    assert.ok(sameOps(opsToJson(odd), odd));
    // Below the threshold the stored form stays a readable array.
    assert.match(opsToJson(ops.slice(0, COMPACT_OPS_MIN - 1)), /^\[/);
  });

  it("replays a finality journaled with one fee op per winner against today's one fee op per finality", () => {
    const pay = (account: typeof A, side: 0 | 1, shares: bigint, payout: bigint, source: "POOL" | "SUPPLY"): JournalOp =>
      ({ type: "RESOLUTION_PAYOUT", marketId: M, account, side, shares, payout, source }) as JournalOp;
    const state: JournalOp = { type: "POOL_WITHDRAW", marketId: M, account: C, amount: 10n };
    const sweep = (amount: bigint): JournalOp => ({ type: "FEE_SWEEP", marketId: M, amount });
    const credit = (amount: bigint): JournalOp => ({ type: "CREDIT", account: TREASURY, assetId: 0n, amount, reason: CreditReason.FEE_SWEEP });
    // LMSR (pool): the winners A and C paid 1% each, B lost.
    const legacy = [pay(A, 0, 100n, 99n, "POOL"), sweep(1n), pay(B, 1, 50n, 0n, "POOL"), pay(C, 0, 300n, 297n, "POOL"), sweep(3n), state];
    const now = [pay(A, 0, 100n, 99n, "POOL"), pay(B, 1, 50n, 0n, "POOL"), pay(C, 0, 300n, 297n, "POOL"), sweep(4n), state];
    assert.ok(sameOps(stringifyJson(legacy), now));
    assert.equal(sameOps(stringifyJson(legacy), [...now.slice(0, 3), sweep(5n), state]), false, "the fees must sum to the same amount");
    assert.equal(sameOps(stringifyJson(legacy), [...now.slice(0, 2), sweep(4n), now[2], state]), false, "and leave after the last payout");
    // Order book (supply): the fee is a treasury CREDIT; in the compact form too (an entry of COMPACT_OPS_MIN+ ops).
    const book = (fees: boolean) => {
      const out: JournalOp[] = [];
      for (let i = 0; i < COMPACT_OPS_MIN; i++) {
        out.push(pay(A, 0, 100n, 99n, "SUPPLY"));
        if (fees) out.push(credit(1n));
      }
      return out;
    };
    const legacyBook = book(true);
    assert.match(opsToJson(legacyBook), /^\{"pmj5"/);
    assert.ok(sameOps(opsToJson(legacyBook), [...book(false), credit(BigInt(COMPACT_OPS_MIN))]));
    assert.equal(sameOps(opsToJson(legacyBook), book(false)), false);
  });

  it("round-trips every command type exactly, bigints as decimal strings", () => {
    for (const c of Object.values(COMMANDS)) {
      const text = commandToJson(c);
      assert.doesNotMatch(text, /\d+n\b/);
      assert.deepEqual(commandFromJson(text), c, c.type);
    }
  });
});
