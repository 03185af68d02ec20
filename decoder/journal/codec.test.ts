import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodePayload, encodePayload, PayloadBuilder, PMJ5_VERSION } from "./codec";
import { JournalDecodeError, JournalEncodeError } from "../errors";
import { accountArb, opArb } from "../test-support/arbitraries";
import { OP_FIELDS, OP_TAGS, opFieldsOfKind, type JournalOp } from "./ops";
import { MARKET_STATES, MarketStateCode, OUTCOME_NONE, marketStateOfCode } from "./market-states";
import { outcomeAssetId, parseOutcomeAssetId, voteEscrowOf } from "../assets";

const treasury = "0x7777777777777777777777777777777777777777" as const;
const lower = (ops: JournalOp[]): JournalOp[] =>
  ops.map((op) =>
    JSON.parse(
      JSON.stringify(op, (_k, v) => (typeof v === "bigint" ? `${v}n` : typeof v === "string" && v.startsWith("0x") ? v.toLowerCase() : v)),
      (_k, v) => (typeof v === "string" && /^\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v),
    ),
  );

const credit: JournalOp = { type: "CREDIT", account: "0x1111111111111111111111111111111111111111", assetId: 0n, amount: 5n, reason: 0 };

function decodeError(bytes: Uint8Array): JournalDecodeError {
  try {
    decodePayload(bytes);
  } catch (e) {
    assert.ok(e instanceof JournalDecodeError, `expected JournalDecodeError, got ${String(e)}`);
    return e;
  }
  assert.fail("payload decoded");
}

describe("PMJ5 codec", () => {
  it("round-trips any operation list (1,000 runs)", () => {
    fc.assert(
      fc.property(fc.array(opArb(), { maxLength: 12 }), accountArb, (ops, t) => {
        const bytes = encodePayload(ops, { treasury: t });
        const decoded = decodePayload(bytes);
        assert.equal(decoded.version, PMJ5_VERSION);
        assert.equal(decoded.treasury, t.toLowerCase());
        assert.deepEqual(decoded.ops, lower(ops));
        assert.deepEqual(encodePayload(decoded.ops, { treasury: decoded.treasury }), bytes);
      }),
      { numRuns: 1000 },
    );
  });

  it("PayloadBuilder knows the exact size and refuses an op past the budget without a trace (500 runs)", () => {
    fc.assert(
      fc.property(fc.array(opArb(), { minLength: 1, maxLength: 40 }), fc.integer({ min: 30, max: 1_500 }), (ops, budget) => {
        const b = new PayloadBuilder({ treasury });
        const taken: JournalOp[] = [];
        for (const op of ops) {
          if (!b.add(op, budget)) break;
          taken.push(op);
          assert.equal(b.size, b.finish().length);
        }
        assert.ok(taken.length >= 1, "the first op is always taken");
        assert.equal(b.count, taken.length);
        const bytes = b.finish();
        if (taken.length > 1) assert.ok(bytes.length <= budget);
        // A refused op leaves nothing: the payload is exactly the encoding of the ops taken.
        assert.deepEqual(bytes, encodePayload(taken, { treasury }));
        if (taken.length < ops.length) assert.ok(encodePayload(ops.slice(0, taken.length + 1), { treasury }).length > budget);
      }),
      { numRuns: 500, seed: 20_261_127 },
    );
  });

  it("PayloadBuilder: an invalid op throws and leaves the payload as it was", () => {
    const b = new PayloadBuilder({ treasury });
    assert.equal(b.add(credit), true);
    const bad = { ...credit, account: "0x2222222222222222222222222222222222222222", amount: 0n } as JournalOp;
    assert.throws(() => b.add(bad), JournalEncodeError);
    assert.deepEqual(b.finish(), encodePayload([credit], { treasury }));
    // The refused op's new account left the dictionary: the next op brings it as a literal again.
    const next = { ...credit, account: "0x2222222222222222222222222222222222222222" } as JournalOp;
    assert.equal(b.add(next), true);
    assert.deepEqual(decodePayload(b.finish()).ops, lower([credit, next]));
  });

  it("references a repeated account and market by index", () => {
    const one = encodePayload([credit], { treasury });
    const two = encodePayload([credit, credit], { treasury });
    // The second CREDIT: tag, account index (1 byte), asset selector, amount, reason.
    assert.equal(two.length - one.length, 5);
    assert.deepEqual(decodePayload(two).accounts, [credit.type === "CREDIT" ? credit.account : ""]);
  });

  it("never crashes on mutated payloads: decodes or throws JournalDecodeError with an offset inside the payload", () => {
    fc.assert(
      fc.property(
        fc.array(opArb(), { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        (ops, flips, cut) => {
          const bytes = encodePayload(ops, { treasury });
          for (const [pos, value] of flips) bytes[pos % bytes.length] = value;
          const truncated = cut % 3 === 0 ? bytes.subarray(0, cut % bytes.length) : bytes;
          try {
            decodePayload(truncated);
          } catch (e) {
            assert.ok(e instanceof JournalDecodeError, String(e));
            assert.ok(e.offset >= 0 && e.offset <= truncated.length);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("reports each malformation with its code and offset", () => {
    const good = encodePayload([credit], { treasury });
    assert.deepEqual(pick(decodeError(good.subarray(0, good.length - 1))), { code: "TRUNCATED", offset: good.length - 1 });
    assert.deepEqual(pick(decodeError(new Uint8Array([0x50, 0x4d, 0x4a, 0x36, 1]))), { code: "BAD_MAGIC", offset: 0 });
    const v2 = good.slice();
    v2[4] = 2;
    assert.deepEqual(pick(decodeError(v2)), { code: "UNKNOWN_VERSION", offset: 4 });
    const badTag = good.slice();
    badTag[26] = 0x7f;
    assert.deepEqual(pick(decodeError(badTag)), { code: "UNKNOWN_OP", offset: 26 });
    const badIndex = good.slice();
    badIndex[27] = 5;
    assert.deepEqual(pick(decodeError(badIndex)), { code: "INDEX_OUT_OF_RANGE", offset: 27 });
    assert.deepEqual(pick(decodeError(new Uint8Array([...good, 0]))), { code: "TRAILING_BYTES", offset: good.length });
    const header = good.subarray(0, 25);
    assert.deepEqual(pick(decodeError(new Uint8Array([...header, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]))), { code: "VARINT_OVERSIZE", offset: 25 });
    assert.deepEqual(pick(decodeError(new Uint8Array([...header, 0x81, 0x00]))), { code: "VARINT_NONCANONICAL", offset: 25 });
    const zeroAmount = good.slice();
    zeroAmount[good.length - 2] = 0;
    assert.deepEqual(pick(decodeError(zeroAmount)), { code: "INVALID_VALUE", offset: good.length - 2 });
  });

  it("refuses side 2 in an asset id, an LMSR trade, a payout and a refund (the committed ledger is binary), both ways", () => {
    const A = "0x1111111111111111111111111111111111111111" as const;
    const ops: JournalOp[] = [
      { type: "CREDIT", account: A, assetId: outcomeAssetId(7n, 1), amount: 9n, reason: 8 },
      { type: "LMSR_TRADE", account: A, marketId: 7n, side: 1, direction: "BUY", shares: 3n, collateral: 2n, fee: 0n },
      { type: "RESOLUTION_PAYOUT", marketId: 7n, account: A, side: 1, shares: 3n, payout: 3n, source: "POOL" },
      { type: "VOID_REFUND", marketId: 7n, account: A, side: 1, shares: 3n, refund: 1n, source: "POOL" },
    ];
    const bytes = encodePayload(ops, { treasury });
    assert.deepEqual(decodePayload(bytes).ops, ops);
    // Byte layout of the first op: tag 01, new account (00 + 20 bytes), asset selector 02 = side 1, new market 00 07.
    assert.deepEqual([...bytes.subarray(26, 28)], [0x01, 0x00]);
    assert.deepEqual([...bytes.subarray(48, 51)], [0x02, 0x00, 0x07]);
    // Selector 3 (side 2) is refused where it sits.
    const sel3 = bytes.slice();
    sel3[48] = 3;
    assert.deepEqual(pick(decodeError(sel3)), { code: "INVALID_VALUE", offset: 48 });
    assert.equal(parseOutcomeAssetId(outcomeAssetId(7n, 2)), null);
    const one = encodePayload([ops[1]!], { treasury });
    // LMSR_TRADE: tag, new account (21 bytes), new market (2 bytes), side.
    const sideAt = 26 + 1 + 21 + 2;
    assert.equal(one[sideAt], 1);
    one[sideAt] = 2;
    assert.deepEqual(pick(decodeError(one)), { code: "INVALID_VALUE", offset: sideAt });
    for (const op of ops.slice(1)) assert.throws(() => encodePayload([{ ...op, side: 2 } as JournalOp], { treasury }), JournalEncodeError, op.type);
    assert.throws(() => encodePayload([{ ...ops[0]!, assetId: outcomeAssetId(7n, 2) } as JournalOp], { treasury }), JournalEncodeError);
    assert.throws(
      () =>
        encodePayload(
          [{ type: "MATCH", maker: A, taker: treasury, marketId: 1n, side: 2, kind: 0, shares: 1n, priceBps: 5000, fee: 0n } as unknown as JournalOp],
          { treasury },
        ),
      JournalEncodeError,
    );
    // A lifecycle record may still name outcome 2 of an on-chain ternary market.
    const reveal: JournalOp = { type: "BALLOT_REVEAL", marketId: 7n, session: 1, account: A, outcome: 2, salt: `0x${"11".repeat(32)}` };
    assert.deepEqual(decodePayload(encodePayload([reveal], { treasury })).ops, [reveal]);
  });

  it("MARKET_STATE carries each state as its code (open 0 … void 8) and its outcome, 255 = none", () => {
    assert.deepEqual(
      MARKET_STATES.map((state) => MarketStateCode[state]),
      [0, 1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.deepEqual(Object.keys(MarketStateCode), [
      "open",
      "closed",
      "creator_proposal",
      "challenge",
      "creator_mia",
      "human_voting",
      "council_review",
      "resolved",
      "void",
    ]);
    for (const state of MARKET_STATES) {
      const outcome = state === "void" ? OUTCOME_NONE : 1;
      const op: JournalOp = { type: "MARKET_STATE", marketId: 12n, state, outcome };
      const bytes = encodePayload([op], { treasury });
      // tag 0d at 26, new market 12 (00 0c) at 27..28, state code at 29, outcome at 30.
      assert.deepEqual([...bytes.subarray(26)], [0x0d, 0x00, 0x0c, MarketStateCode[state], outcome]);
      assert.equal(marketStateOfCode(bytes[29]), state);
      assert.deepEqual(decodePayload(bytes).ops, [op]);
    }
    assert.equal(marketStateOfCode(9), undefined);
  });

  it("a reveal, a lock and an award travel with their session, hash, salt and recipient", () => {
    const C = "0x3333333333333333333333333333333333333333" as const;
    const hash = `0x${"ab".repeat(32)}` as const;
    const ops: JournalOp[] = [
      { type: "STAKE_LOCK", marketId: 12n, session: 300, account: C, amount: 5n, ballotHash: hash },
      { type: "BALLOT_REVEAL", marketId: 12n, session: 300, account: C, outcome: 2, salt: hash },
      { type: "BOND_AWARD", marketId: 12n, account: C, recipient: voteEscrowOf(12n), amount: 9n },
    ];
    const bytes = encodePayload(ops, { treasury });
    assert.deepEqual(decodePayload(bytes).ops, ops);
    // STAKE_LOCK: tag, new market (2 bytes), session 300 as varint ac 02, new account (21 bytes), amount 05, 32 hash bytes.
    assert.deepEqual([...bytes.subarray(26, 31)], [0x0f, 0x00, 0x0c, 0xac, 0x02]);
    assert.equal(bytes.length, 26 + (1 + 2 + 2 + 21 + 1 + 32) + (1 + 1 + 2 + 1 + 1 + 32) + (1 + 1 + 1 + 21 + 1));
  });

  it("refuses lifecycle operations that break a rule when encoding", () => {
    const C = "0x3333333333333333333333333333333333333333" as const;
    const hash = `0x${"ab".repeat(32)}` as const;
    const bad: unknown[] = [
      { type: "MARKET_STATE", marketId: 1n, state: "resolved", outcome: OUTCOME_NONE },
      { type: "MARKET_STATE", marketId: 1n, state: "void", outcome: 0 },
      { type: "MARKET_STATE", marketId: 1n, state: "closed", outcome: 3 },
      { type: "MARKET_STATE", marketId: 1n, state: "settled", outcome: OUTCOME_NONE },
      { type: "BALLOT_REVEAL", marketId: 1n, session: 1, account: C, outcome: OUTCOME_NONE, salt: hash },
      { type: "BALLOT_REVEAL", marketId: 1n, session: 1, account: C, outcome: 0, salt: `0x${"ab".repeat(31)}` },
      { type: "STAKE_LOCK", marketId: 1n, session: 0x10000, account: C, amount: 1n, ballotHash: hash },
      { type: "STAKE_LOCK", marketId: 1n, session: -1, account: C, amount: 1n, ballotHash: hash },
      { type: "STAKE_LOCK", marketId: 1n, session: 1, account: C, amount: 0n, ballotHash: hash },
      { type: "STAKE_RETURN", marketId: 1n, session: 1, account: C, amount: 0n },
      { type: "VOTE_REWARD", marketId: 1n, session: 1.5, account: C, amount: 1n },
      { type: "BOND_AWARD", marketId: 1n, account: C, recipient: "0x12", amount: 1n },
      { type: "BOND_AWARD", marketId: 1n, account: C, recipient: C, amount: 0n },
      { type: "VOTE_ESCROW_SWEEP", marketId: 1n, amount: 0n },
      { type: "VOTE_ESCROW_SWEEP", marketId: 0n, amount: 1n },
    ];
    for (const op of bad)
      assert.throws(
        () => encodePayload([op as JournalOp], { treasury }),
        JournalEncodeError,
        JSON.stringify(op, (_k, v) => (typeof v === "bigint" ? `${v}` : v)),
      );
  });

  it("OP_FIELDS declares every tag's fields; their JSON kinds say which are bigint and which are hex strings", () => {
    assert.deepEqual(Object.keys(OP_FIELDS), Object.keys(OP_TAGS));
    assert.deepEqual(opFieldsOfKind("STAKE_LOCK", "bigint"), ["marketId", "amount"]);
    assert.deepEqual(opFieldsOfKind("STAKE_LOCK", "hex"), ["account", "ballotHash"]);
    assert.deepEqual(opFieldsOfKind("STAKE_LOCK", "number"), ["session"]);
    assert.deepEqual(opFieldsOfKind("MARKET_STATE", "string"), ["state"]);
    assert.deepEqual(opFieldsOfKind("MARKET_STATE", "number"), ["outcome"]);
    assert.deepEqual(opFieldsOfKind("BALLOT_REVEAL", "hex"), ["account", "salt"]);
    assert.deepEqual(opFieldsOfKind("BOND_AWARD", "hex"), ["account", "recipient"]);
    assert.deepEqual(opFieldsOfKind("RESOLUTION_PAYOUT", "bigint"), ["marketId", "shares", "payout"]);
    assert.deepEqual(opFieldsOfKind("CREDIT", "bigint"), ["assetId", "amount"]);
  });

  it("refuses invalid operations when encoding", () => {
    assert.throws(() => encodePayload([{ ...credit, amount: 0n } as JournalOp], { treasury }), JournalEncodeError);
    assert.throws(
      () =>
        encodePayload([{ type: "MATCH", maker: treasury, taker: treasury, marketId: 1n, side: 0, kind: 0, shares: 1n, priceBps: 10000, fee: 0n }], {
          treasury,
        }),
      JournalEncodeError,
    );
    assert.throws(() => encodePayload([{ ...credit, assetId: 5n } as JournalOp], { treasury }), JournalEncodeError);
  });
});

function pick(e: JournalDecodeError): { code: string; offset: number } {
  return { code: e.code, offset: e.offset };
}
