import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { keccak256, type Address, type Hex } from "viem";
import { BallotBook } from "./ballots";
import { ballotHashOf } from "../journal/ballot";
import type { JournalOp } from "../journal/ops";

const C = "0x3333333333333333333333333333333333333333" as Address;
const D = "0x4444444444444444444444444444444444444444" as Address;
const SALT = `0x${"5a".repeat(32)}` as Hex;

const lock = (account: Address, outcome: 0 | 1 | 2, session = 1, salt = SALT, marketId = 12n): JournalOp => ({
  type: "STAKE_LOCK",
  marketId,
  session,
  account,
  amount: 100n,
  ballotHash: ballotHashOf({ marketId, session, account, outcome, salt }),
});
const reveal = (account: Address, outcome: 0 | 1 | 2, session = 1, salt = SALT, marketId = 12n): JournalOp => ({
  type: "BALLOT_REVEAL",
  marketId,
  session,
  account,
  outcome,
  salt,
});
const state = (s: "resolved" | "void" | "council_review", outcome: 0 | 1 | 2 | 255 = 255, marketId = 12n): JournalOp =>
  ({ type: "MARKET_STATE", marketId, state: s, outcome }) as JournalOp;

describe("ballotHashOf", () => {
  it('is keccak256 of the packed preimage ("PMJ5/ballot", uint64, uint16, address, uint8, bytes32)', () => {
    const packed = Buffer.concat([
      Buffer.from("PMJ5/ballot"),
      Buffer.from("000000000000000c", "hex"), // market 12
      Buffer.from("0102", "hex"), // session 258
      Buffer.from(C.slice(2), "hex"),
      Buffer.from([2]),
      Buffer.from(SALT.slice(2), "hex"),
    ]);
    assert.equal(packed.length, 11 + 8 + 2 + 20 + 1 + 32);
    assert.equal(ballotHashOf({ marketId: 12n, session: 258, account: C, outcome: 2, salt: SALT }), keccak256(packed));
    // The account's case does not matter; every other input does.
    const base = { marketId: 12n, session: 1, account: C, outcome: 1, salt: SALT };
    assert.equal(ballotHashOf({ ...base, account: C.toUpperCase().replace("0X", "0x") as Address }), ballotHashOf(base));
    const variants = [{ marketId: 13n }, { session: 2 }, { account: D }, { outcome: 0 }, { salt: `0x${"5b".repeat(32)}` as Hex }];
    for (const v of variants) assert.notEqual(ballotHashOf({ ...base, ...v }), ballotHashOf(base), Object.keys(v)[0]);
  });
});

describe("BallotBook", () => {
  it("checks a reveal against a lock of an earlier batch, then forgets both", () => {
    const book = new BallotBook();
    assert.deepEqual(book.check([lock(C, 1), lock(D, 0)]), { revealsChecked: 0, failures: [] });
    assert.equal(book.size, 2);
    assert.deepEqual(book.check([state("council_review"), reveal(C, 1), reveal(D, 0)]), { revealsChecked: 2, failures: [] });
    assert.equal(book.size, 0);
    assert.deepEqual(book.check([state("resolved", 1)]).failures, []);
  });

  it("a reveal of another outcome or salt than committed is BALLOT_MISMATCH, naming the op and the ballot", () => {
    const book = new BallotBook();
    book.check([lock(C, 1), lock(D, 1)]);
    const { failures } = book.check([reveal(C, 0), reveal(D, 1, 1, `0x${"00".repeat(32)}`)]);
    assert.deepEqual(
      failures.map((f) => [f.index, f.code, f.marketId, f.session, f.account]),
      [
        [0, "BALLOT_MISMATCH", 12n, 1, C],
        [1, "BALLOT_MISMATCH", 12n, 1, D],
      ],
    );
    assert.match(failures[0].message, /market 12 session 1 voter 0x3333.*outcome 0 .*the lock committed to 0x/);
  });

  it("a reveal without a pending lock is BALLOT_NO_LOCK: never locked, another session or market, or revealed already", () => {
    const book = new BallotBook();
    book.check([lock(C, 1)]);
    const { failures, revealsChecked } = book.check([reveal(D, 1), reveal(C, 1, 2), reveal(C, 1, 1, SALT, 13n), reveal(C, 1), reveal(C, 1)]);
    assert.equal(revealsChecked, 1);
    assert.deepEqual(
      failures.map((f) => [f.index, f.code]),
      [
        [0, "BALLOT_NO_LOCK"],
        [1, "BALLOT_NO_LOCK"],
        [2, "BALLOT_NO_LOCK"],
        [4, "BALLOT_NO_LOCK"],
      ],
    );
  });

  it("a second lock of the same voter and session before the reveal is BALLOT_DUPLICATE_LOCK; another session is not", () => {
    const book = new BallotBook();
    assert.deepEqual(book.check([lock(C, 1), lock(C, 0, 2)]).failures, []);
    const { failures } = book.check([lock(C, 0)]);
    assert.deepEqual(
      failures.map((f) => [f.index, f.code, f.session]),
      [[0, "BALLOT_DUPLICATE_LOCK", 1]],
    );
  });

  it("a market that ends with a ballot never revealed reports BALLOT_UNREVEALED and drops the market's ballots", () => {
    const book = new BallotBook();
    book.check([lock(C, 1), lock(D, 0), lock(D, 0, 1, SALT, 14n)]);
    const { failures } = book.check([reveal(C, 1), state("void")]);
    assert.deepEqual(
      failures.map((f) => [f.index, f.code, f.account]),
      [[1, "BALLOT_UNREVEALED", D]],
    );
    // Market 14's ballot stays pending; a non-terminal state does not touch it.
    assert.equal(book.size, 1);
    assert.deepEqual(book.check([state("council_review", 255, 14n)]).failures, []);
    assert.equal(book.size, 1);
  });
});
