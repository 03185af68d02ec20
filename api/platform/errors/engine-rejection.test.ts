/**
 * The refusal table: every code the engine and the exchange can answer is mapped, every mapped problem code exists in
 * codes.ts with the status the table states, and each refusal is answered as the API answered it before refusals
 * became values (status, problem code, `reason` first, then the details with bigints as strings, headers).
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { Address } from "viem";
import { Engine, REJECT_CODES, type Command } from "../../../relayer/engine";
import type { Submitted } from "../../../relayer/exchange/exchange";
import { ApiError } from "./api-error";
import { ERROR_CODES } from "./codes";
import { REJECTION_PROBLEMS, accepted, problemOfRejection } from "./engine-rejection";

const A = ("0x" + "a".repeat(40)) as Address;

/** What the API answered for each code before the typed contract (status, problem code, CONFLICT reason). */
const ANSWERED: Record<string, [number, string, string?]> = {
  INVALID_PAYLOAD: [400, "INVALID_PAYLOAD"],
  MARKET_NOT_FOUND: [404, "MARKET_NOT_FOUND"],
  MARKET_EXISTS: [409, "CONFLICT"],
  MARKET_CLOSED: [410, "MARKET_CLOSED"],
  INSUFFICIENT_BALANCE: [409, "INSUFFICIENT_BALANCE"],
  FILL_ALLOWANCE_EXHAUSTED: [402, "FILL_ALLOWANCE_EXHAUSTED"],
  ORDER_NOT_FOUND: [404, "ORDER_NOT_FOUND"],
  ORDER_NOT_OPEN: [409, "CONFLICT", "ORDER_NOT_OPEN"],
  CLIENT_ORDER_ID_REUSED: [409, "CONFLICT"],
  POST_ONLY_WOULD_CROSS: [409, "CONFLICT", "POST_ONLY_WOULD_CROSS"],
  SLIPPAGE: [409, "CONFLICT", "SLIPPAGE"],
  BUDGET_TOO_SMALL: [409, "CONFLICT", "BUDGET_TOO_SMALL"],
  CREATOR_WINDOW_ELAPSED: [409, "CREATOR_WINDOW_ELAPSED"],
  CHALLENGE_WINDOW_CLOSED: [409, "CHALLENGE_WINDOW_CLOSED"],
  CREATOR_WINDOW_NOT_OPEN: [409, "CONFLICT", "CREATOR_WINDOW_NOT_OPEN"],
  NOT_CREATOR: [403, "FORBIDDEN", "NOT_CREATOR"],
  CREATOR_NOT_ELIGIBLE: [403, "FORBIDDEN", "CREATOR_NOT_ELIGIBLE"],
  KEEPER_WINDOW_CLOSED: [409, "CONFLICT", "KEEPER_WINDOW_CLOSED"],
  VOTE_NOT_OPEN: [409, "CONFLICT", "VOTE_NOT_OPEN"],
  ALREADY_VOTED: [409, "CONFLICT", "ALREADY_VOTED"],
  COUNCIL_NOT_OPEN: [409, "CONFLICT", "COUNCIL_NOT_OPEN"],
  NOT_COUNCIL_MEMBER: [403, "FORBIDDEN", "NOT_COUNCIL_MEMBER"],
  MARKET_NOT_FINAL: [409, "CONFLICT", "MARKET_NOT_FINAL"],
  WRONG_MARKET_STATE: [409, "CONFLICT", "WRONG_MARKET_STATE"],
  SERVICE_UNAVAILABLE: [503, "SERVICE_UNAVAILABLE"],
};

function refusal(r: Submitted): ApiError {
  try {
    accepted(r);
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return err;
  }
  assert.fail("the answer was accepted");
}

describe("engine refusals -> problems (one table)", () => {
  it("maps every engine code and the exchange's SERVICE_UNAVAILABLE, and nothing else", () => {
    assert.deepEqual(Object.keys(REJECTION_PROBLEMS).sort(), [...REJECT_CODES, "SERVICE_UNAVAILABLE"].sort());
  });

  it("maps each code to a problem code of codes.ts with that code's status", () => {
    for (const [code, p] of Object.entries(REJECTION_PROBLEMS)) {
      assert.ok(p.code in ERROR_CODES, `${code} -> ${p.code} is not in codes.ts`);
      assert.equal(p.status, ERROR_CODES[p.code].status, code);
    }
  });

  it("answers each code as before: status, problem code and CONFLICT reason", () => {
    assert.deepEqual(Object.keys(ANSWERED).sort(), Object.keys(REJECTION_PROBLEMS).sort());
    for (const [code, p] of Object.entries(REJECTION_PROBLEMS)) {
      assert.deepEqual([p.status, p.code, ...(p.reason === undefined ? [] : [p.reason])], ANSWERED[code], code);
    }
  });

  it("turns a real refusal into its problem: detail, `reason` first, then the details as JSON", () => {
    const e = new Engine({ treasury: ("0x" + "7".repeat(40)) as Address, allowance: { enabled: false, freePerPeriod: 0, periodMs: 1_000 } });
    const run = (c: Command) => e.apply(c, 1);
    run({ type: "credit", account: A, amount: 10n ** 12n, reason: "GRANT" });
    run({
      type: "createMarket",
      marketId: 1n,
      pricing: "LMSR",
      outcomes: 2,
      feeModel: "notional-v1",
      takerFeeBps: 0,
      sellExitFeeBps: 0,
      winningsExitFeeBps: 0,
      seed: 10n ** 9n,
      funder: A,
    });
    const slip = refusal(run({ type: "lmsrTrade", account: A, marketId: 1n, outcome: 0, direction: "BUY", shares: 1_000_000n, limit: 1n }));
    assert.equal(slip.status, 409);
    assert.equal(slip.code, "CONFLICT");
    assert.equal(slip.detail, "cost above the limit");
    assert.deepEqual(Object.keys(slip.extensions), ["reason", "cost"]);
    assert.equal(slip.extensions.reason, "SLIPPAGE");
    assert.match(String(slip.extensions.cost), /^\d+$/);
    const missing = refusal(run({ type: "placeOrder", account: A, marketId: 9n, outcome: 0, action: "buy", priceBps: 5000, size: 10_000n, tif: "GTC" }));
    assert.deepEqual([missing.status, missing.code, missing.detail, missing.extensions], [404, "MARKET_NOT_FOUND", "market 9 not found", {}]);
    const field = refusal(
      run({
        type: "createMarket",
        marketId: 2n,
        pricing: "ORDERBOOK",
        outcomes: 3,
        feeModel: "notional-v1",
        takerFeeBps: 0,
        sellExitFeeBps: 0,
        winningsExitFeeBps: 0,
      }),
    );
    assert.deepEqual(field.extensions, { field: "outcomes" });
  });

  it("answers a trade on a market past its closeTime 410 MARKET_CLOSED, and a late proposal CREATOR_WINDOW_ELAPSED", () => {
    const e = new Engine({ treasury: ("0x" + "7".repeat(40)) as Address, allowance: { enabled: false, freePerPeriod: 0, periodMs: 1_000 } });
    e.apply({ type: "credit", account: A, amount: 10n ** 12n, reason: "GRANT" }, 1);
    const create: Command = {
      type: "createMarket",
      marketId: 3n,
      pricing: "ORDERBOOK",
      outcomes: 2,
      feeModel: "notional-v1",
      takerFeeBps: 0,
      sellExitFeeBps: 0,
      winningsExitFeeBps: 0,
      creator: A,
      closeTime: 1_000,
    };
    assert.equal(e.apply(create, 1).ok, true);
    assert.equal(e.apply({ type: "advanceLifecycle" }, 1_000).ok, true);
    assert.equal(e.lifecycle(3n)!.state, "closed");
    const closed = refusal(
      e.apply({ type: "placeOrder", account: A, marketId: 3n, outcome: 0, action: "buy", priceBps: 5000, size: 10_000n, tif: "GTC" }, 1_001),
    );
    assert.deepEqual([closed.status, closed.code], [410, "MARKET_CLOSED"]);
    const late = refusal(e.apply({ type: "proposeOutcome", account: A, marketId: 3n, outcome: 0 }, e.lifecycle(3n)!.creatorResolveBy + 1));
    assert.deepEqual([late.status, late.code, late.extensions], [409, "CREATOR_WINDOW_ELAPSED", { creatorResolveBy: e.lifecycle(3n)!.creatorResolveBy }]);
  });

  it("answers bigints of nested details as strings, and SERVICE_UNAVAILABLE with Retry-After", () => {
    const order = { orderId: "o-1", size: 10_000n, filledSize: 10_000n };
    const notOpen = problemOfRejection({ ok: false, code: "ORDER_NOT_OPEN", message: "order is already filled", details: { order } as never });
    assert.deepEqual(notOpen.extensions, { reason: "ORDER_NOT_OPEN", order: { orderId: "o-1", size: "10000", filledSize: "10000" } });
    const down = refusal({ ok: false, code: "SERVICE_UNAVAILABLE", message: "the exchange is closed", details: {} });
    assert.deepEqual([down.status, down.detail, down.extensions, down.headers], [503, "the exchange is closed", {}, { "Retry-After": "1" }]);
  });
});
