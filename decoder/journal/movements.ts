/**
 * The state transition of the journal: the movement list of each operation, and `applyOp`.
 * The relayer and the decoder both call these, so the replay is the relayer's own logic.
 * Zero-amount legs (fee 0, payout 0) are left out: every movement has amount > 0.
 */
import { COLLATERAL_ASSET, SUPPLY_ACCOUNT, bondEscrowOf, outcomeAssetId, poolAccountOf, voteEscrowOf, type Side } from "../assets";
import type { Movement } from "../ledger/movement";
import type { LedgerState } from "../ledger/state";
import type { Address } from "viem";
import type { JournalOp, MatchOp, MovementContext } from "./ops";

const C = COLLATERAL_ASSET;

function move(out: Movement[], from: Address, to: Address, assetId: bigint, amount: bigint): void {
  if (amount > 0n) out.push({ from, to, assetId, amount });
}

/** Notional of a match: shares * priceBps / 10000, floored. */
export function matchNotional(shares: bigint, priceBps: number): bigint {
  return (shares * BigInt(priceBps)) / 10_000n;
}

function matchMovements(op: MatchOp, ctx: MovementContext, out: Movement[]): void {
  const n = matchNotional(op.shares, op.priceBps);
  const S = outcomeAssetId(op.marketId, op.side);
  const O = outcomeAssetId(op.marketId, (1 - op.side) as Side);
  const { maker, taker, shares } = op;
  switch (op.kind) {
    case 0:
      move(out, taker, maker, C, n);
      move(out, maker, taker, S, shares);
      break;
    case 1:
      move(out, maker, taker, C, n);
      move(out, taker, maker, S, shares);
      break;
    case 2:
      move(out, maker, SUPPLY_ACCOUNT, C, n);
      move(out, taker, SUPPLY_ACCOUNT, C, shares - n);
      move(out, SUPPLY_ACCOUNT, maker, S, shares);
      move(out, SUPPLY_ACCOUNT, taker, O, shares);
      break;
    case 3:
      move(out, maker, SUPPLY_ACCOUNT, S, shares);
      move(out, taker, SUPPLY_ACCOUNT, O, shares);
      move(out, SUPPLY_ACCOUNT, maker, C, n);
      move(out, SUPPLY_ACCOUNT, taker, C, shares - n);
      break;
  }
  move(out, taker, ctx.treasury, C, op.fee);
}

/** The movements of one operation, in the order they are applied. */
export function movementsOf(op: JournalOp, ctx: MovementContext): Movement[] {
  const out: Movement[] = [];
  switch (op.type) {
    case "CREDIT":
      move(out, SUPPLY_ACCOUNT, op.account, op.assetId, op.amount);
      break;
    case "DEBIT":
      move(out, op.account, SUPPLY_ACCOUNT, op.assetId, op.amount);
      break;
    case "MATCH":
      matchMovements(op, ctx, out);
      break;
    case "LMSR_TRADE": {
      // The pool holds the collateral; shares are minted from (BUY) or burned to (SELL) the supply.
      const pool = poolAccountOf(op.marketId);
      const S = outcomeAssetId(op.marketId, op.side);
      if (op.direction === "BUY") {
        move(out, op.account, pool, C, op.collateral);
        move(out, SUPPLY_ACCOUNT, op.account, S, op.shares);
      } else {
        move(out, op.account, SUPPLY_ACCOUNT, S, op.shares);
        move(out, pool, op.account, C, op.collateral);
      }
      move(out, op.account, ctx.treasury, C, op.fee);
      break;
    }
    case "MARKET_SEED":
      move(out, op.funder, poolAccountOf(op.marketId), C, op.amount);
      break;
    case "POOL_WITHDRAW":
      move(out, poolAccountOf(op.marketId), op.account, C, op.amount);
      break;
    case "RESOLUTION_PAYOUT":
    case "VOID_REFUND": {
      const paid = op.type === "RESOLUTION_PAYOUT" ? op.payout : op.refund;
      move(out, op.account, SUPPLY_ACCOUNT, outcomeAssetId(op.marketId, op.side), op.shares);
      move(out, op.source === "POOL" ? poolAccountOf(op.marketId) : SUPPLY_ACCOUNT, op.account, C, paid);
      break;
    }
    case "FEE_SWEEP":
      move(out, poolAccountOf(op.marketId), ctx.treasury, C, op.amount);
      break;
    case "BOND_LOCK":
      move(out, op.account, bondEscrowOf(op.marketId), C, op.amount);
      break;
    case "BOND_RETURN":
      move(out, bondEscrowOf(op.marketId), op.account, C, op.amount);
      break;
    case "BOND_SLASH":
      move(out, bondEscrowOf(op.marketId), ctx.treasury, C, op.amount);
      break;
    case "BOND_AWARD":
      move(out, bondEscrowOf(op.marketId), op.recipient, C, op.amount);
      break;
    case "STAKE_LOCK":
      move(out, op.account, voteEscrowOf(op.marketId), C, op.amount);
      break;
    case "STAKE_RETURN":
    case "VOTE_REWARD":
      move(out, voteEscrowOf(op.marketId), op.account, C, op.amount);
      break;
    case "VOTE_ESCROW_SWEEP":
      move(out, voteEscrowOf(op.marketId), ctx.treasury, C, op.amount);
      break;
    case "MARKET_STATE":
    case "BALLOT_REVEAL":
      // Records of the lifecycle: they move nothing (a reveal is checked against its STAKE_LOCK by replay).
      break;
  }
  return out;
}

/** Applies one operation to the ledger state (all its movements, in order). */
export function applyOp(state: LedgerState, op: JournalOp, ctx: MovementContext): void {
  state.applyMovements(movementsOf(op, ctx));
}

/** Applies every operation of a decoded payload, in order. */
export function applyOps(state: LedgerState, ops: readonly JournalOp[], ctx: MovementContext): void {
  for (const op of ops) applyOp(state, op, ctx);
}
