/** fast-check arbitraries of journal operations, shared by the codec and state tests. */
import fc from "fast-check";
import type { Address, Hex } from "viem";
import { outcomeAssetId, type OutcomeIndex, type Side } from "../assets";
import { MARKET_STATES, OUTCOME_NONE, type OutcomeOrNone } from "../journal/market-states";
import type { JournalOp } from "../journal/ops";

const hex40 = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString("hex")}` as Address);
/** A few fixed accounts mixed with random ones, so dictionaries get reused. */
export const accountArb: fc.Arbitrary<Address> = fc.oneof(
  fc.constantFrom<Address>(
    "0x1111111111111111111111111111111111111111",
    "0x2222222222222222222222222222222222222222",
    "0xabcdefabcdefabcdefabcdefabcdefabcdefabcd",
  ),
  hex40,
);
export const marketArb = fc.oneof(fc.constantFrom(1n, 2n, 300n), fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }));
/** The committed ledger is binary: sides 0 and 1 only; lifecycle records (reveals, states) may name outcome 2. */
const sideArb = fc.constantFrom<Side>(0, 1);
const outcomeArb = fc.constantFrom<OutcomeIndex>(0, 1, 2);
const amount = fc.bigInt({ min: 1n, max: (1n << 255n) - 1n });
const small = fc.bigInt({ min: 1n, max: 10n ** 24n });
const u128 = (min: bigint) => fc.bigInt({ min, max: (1n << 128n) - 1n });
const assetArb = fc.oneof(
  fc.constant(0n),
  fc.tuple(marketArb, sideArb).map(([m, s]) => outcomeAssetId(m, s)),
);
const hex32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `0x${Buffer.from(b).toString("hex")}` as Hex);
const sessionArb = fc.oneof(fc.constantFrom(0, 1, 2), fc.integer({ min: 0, max: 0xffff }));
/** A MARKET_STATE's state and outcome: `resolved` names an outcome, `void` none, the others either. */
const marketStateArb = fc
  .constantFrom(...MARKET_STATES)
  .chain((state) =>
    (state === "resolved" ? outcomeArb : state === "void" ? fc.constant(OUTCOME_NONE) : fc.constantFrom<OutcomeOrNone>(0, 1, 2, OUTCOME_NONE)).map(
      (outcome) => ({ state, outcome: outcome as OutcomeOrNone }),
    ),
  );
const reason = fc.integer({ min: 0, max: 8 }) as fc.Arbitrary<0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8>;

/** Any valid operation; `big` selects full-width amounts (codec) or modest ones (state, no int256 overflow). */
export function opArb(big = true): fc.Arbitrary<JournalOp> {
  const amt = big ? amount : small;
  const sh = big ? u128(1n) : small;
  const fee = big ? u128(0n) : fc.bigInt({ min: 0n, max: 10n ** 20n });
  return fc.oneof(
    fc.record({ type: fc.constant("CREDIT" as const), account: accountArb, assetId: assetArb, amount: amt, reason }),
    fc.record({ type: fc.constant("DEBIT" as const), account: accountArb, assetId: assetArb, amount: amt, reason }),
    fc.record({
      type: fc.constant("MATCH" as const),
      maker: accountArb,
      taker: accountArb,
      marketId: marketArb,
      side: sideArb,
      kind: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
      shares: sh,
      priceBps: fc.integer({ min: 1, max: 9999 }),
      fee,
    }),
    fc.record({
      type: fc.constant("LMSR_TRADE" as const),
      account: accountArb,
      marketId: marketArb,
      side: sideArb,
      direction: fc.constantFrom("BUY" as const, "SELL" as const),
      shares: sh,
      collateral: fee,
      fee,
    }),
    fc.record({ type: fc.constant("MARKET_SEED" as const), marketId: marketArb, funder: accountArb, amount: amt }),
    fc.record({ type: fc.constant("POOL_WITHDRAW" as const), marketId: marketArb, account: accountArb, amount: amt }),
    fc.record({
      type: fc.constant("RESOLUTION_PAYOUT" as const),
      marketId: marketArb,
      account: accountArb,
      side: sideArb,
      shares: fee,
      payout: fee,
      source: fc.constantFrom("SUPPLY" as const, "POOL" as const),
    }),
    fc.record({
      type: fc.constant("VOID_REFUND" as const),
      marketId: marketArb,
      account: accountArb,
      side: sideArb,
      shares: fee,
      refund: fee,
      source: fc.constantFrom("SUPPLY" as const, "POOL" as const),
    }),
    fc.record({ type: fc.constant("FEE_SWEEP" as const), marketId: marketArb, amount: amt }),
    fc.record({
      type: fc.constantFrom("BOND_LOCK" as const, "BOND_RETURN" as const, "BOND_SLASH" as const),
      marketId: marketArb,
      account: accountArb,
      amount: amt,
    }),
    fc.tuple(marketArb, marketStateArb).map(([marketId, s]): JournalOp => ({ type: "MARKET_STATE", marketId, ...s })),
    fc.record({ type: fc.constant("BOND_AWARD" as const), marketId: marketArb, account: accountArb, recipient: accountArb, amount: amt }),
    fc.record({ type: fc.constant("STAKE_LOCK" as const), marketId: marketArb, session: sessionArb, account: accountArb, amount: amt, ballotHash: hex32 }),
    fc.record({
      type: fc.constantFrom("STAKE_RETURN" as const, "VOTE_REWARD" as const),
      marketId: marketArb,
      session: sessionArb,
      account: accountArb,
      amount: amt,
    }),
    fc.record({ type: fc.constant("BALLOT_REVEAL" as const), marketId: marketArb, session: sessionArb, account: accountArb, outcome: outcomeArb, salt: hex32 }),
    fc.record({ type: fc.constant("VOTE_ESCROW_SWEEP" as const), marketId: marketArb, amount: amt }),
  );
}
