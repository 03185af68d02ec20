/**
 * Movements of legacy `commitBatch` batches (no journal payload): either the ERC-1155 transfer events the
 * same transaction emitted, or, when events were not emitted, the match and credit tuples of the calldata
 * applied under the ledger conventions' rules (the same rules as the journal's MATCH and CREDIT/DEBIT).
 */
import type { Address } from "viem";
import { normalizeAccount, type Side } from "../assets";
import type { Movement } from "../ledger/movement";
import { movementsOf } from "../journal/movements";
import type { MatchKind } from "../journal/ops";

/** The match tuple of `commitBatch`. */
export interface LegacyMatch {
  maker: Address;
  taker: Address;
  marketId: bigint;
  side: number;
  kind: number;
  shares: bigint;
  priceBps: number;
  fee: bigint;
}

/** The credit tuple of `commitBatch`. */
export interface LegacyCredit {
  account: Address;
  id: bigint;
  delta: bigint;
  reason: number;
}

/** A decoded ERC-1155 TransferSingle / TransferBatch event. */
export interface TransferEvent {
  from: Address;
  to: Address;
  ids: readonly bigint[];
  values: readonly bigint[];
}

/** Movements of calldata matches then credits (the contract applies them in that order). */
export function legacyCalldataMovements(matches: readonly LegacyMatch[], credits: readonly LegacyCredit[], treasury: Address): Movement[] {
  const out: Movement[] = [];
  for (const m of matches) {
    out.push(
      ...movementsOf(
        {
          type: "MATCH",
          maker: normalizeAccount(m.maker),
          taker: normalizeAccount(m.taker),
          marketId: m.marketId,
          side: Number(m.side) as Side,
          kind: Number(m.kind) as MatchKind,
          shares: m.shares,
          priceBps: Number(m.priceBps),
          fee: m.fee,
        },
        { treasury: normalizeAccount(treasury) },
      ),
    );
  }
  for (const c of credits) {
    const account = normalizeAccount(c.account);
    if (c.delta > 0n) out.push({ from: "0x0000000000000000000000000000000000000000", to: account, assetId: c.id, amount: c.delta });
    else if (c.delta < 0n) out.push({ from: account, to: "0x0000000000000000000000000000000000000000", assetId: c.id, amount: -c.delta });
  }
  return out;
}

/** Movements of transfer events (mint = from 0x0, burn = to 0x0, as in ERC-1155). Zero values are skipped. */
export function transferMovements(events: readonly TransferEvent[]): Movement[] {
  const out: Movement[] = [];
  for (const e of events) {
    e.ids.forEach((id, i) => {
      const amount = e.values[i];
      if (amount > 0n) out.push({ from: normalizeAccount(e.from), to: normalizeAccount(e.to), assetId: id, amount });
    });
  }
  return out;
}
