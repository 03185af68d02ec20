/**
 * Movements of legacy `commitBatch` batches (no journal payload): either the ERC-1155 transfer events the
 * same transaction emitted, or, when events were not emitted, the match and credit tuples of the calldata
 * applied under the ledger conventions' rules (the same rules as the journal's MATCH and CREDIT/DEBIT).
 */
import type { Address } from "viem";
import { SUPPLY_ACCOUNT, normalizeAccount, type Side } from "../assets";
import type { Movement } from "../ledger/movement";
import { movementsOf } from "../journal/movements";
import { MatchKind, type JournalOp } from "../journal/ops";

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
  /** The event's name, for naming a failing step. */
  event?: "TransferSingle" | "TransferBatch";
  from: Address;
  to: Address;
  ids: readonly bigint[];
  values: readonly bigint[];
}

/** One step of a batch (a journal op; a legacy calldata match or credit, or one transfer event) and its movements. */
export interface BatchStep {
  /** What the step is, e.g. `MATCH MINT`, `CREDIT`, `DEBIT`, `TransferSingle`. */
  readonly kind: string;
  readonly movements: Movement[];
}

/** How a failing op is named: its type, and for a match its kind (`MATCH TAKER_SELLS`). */
export function opKindOf(op: JournalOp): string {
  if (op.type !== "MATCH") return op.type;
  const name = Object.entries(MatchKind).find(([, code]) => code === op.kind)?.[0];
  return `MATCH ${name ?? `kind ${op.kind}`}`;
}

/** Steps of calldata matches then credits (the contract applies them in that order). */
export function legacyCalldataSteps(matches: readonly LegacyMatch[], credits: readonly LegacyCredit[], treasury: Address): BatchStep[] {
  const out: BatchStep[] = [];
  for (const m of matches) {
    const op: JournalOp = {
      type: "MATCH",
      maker: normalizeAccount(m.maker),
      taker: normalizeAccount(m.taker),
      marketId: m.marketId,
      side: Number(m.side) as Side,
      kind: Number(m.kind) as MatchKind,
      shares: m.shares,
      priceBps: Number(m.priceBps),
      fee: m.fee,
    };
    out.push({ kind: opKindOf(op), movements: movementsOf(op, { treasury: normalizeAccount(treasury) }) });
  }
  for (const c of credits) {
    const account = normalizeAccount(c.account);
    if (c.delta > 0n) out.push({ kind: "CREDIT", movements: [{ from: SUPPLY_ACCOUNT, to: account, assetId: c.id, amount: c.delta }] });
    else if (c.delta < 0n) out.push({ kind: "DEBIT", movements: [{ from: account, to: SUPPLY_ACCOUNT, assetId: c.id, amount: -c.delta }] });
    else out.push({ kind: "CREDIT", movements: [] });
  }
  return out;
}

/** Movements of calldata matches then credits (the contract applies them in that order). */
export function legacyCalldataMovements(matches: readonly LegacyMatch[], credits: readonly LegacyCredit[], treasury: Address): Movement[] {
  return legacyCalldataSteps(matches, credits, treasury).flatMap((s) => s.movements);
}

/** Steps of transfer events, one per event (mint = from 0x0, burn = to 0x0, as in ERC-1155). Zero values are skipped. */
export function transferSteps(events: readonly TransferEvent[]): BatchStep[] {
  return events.map((e) => {
    const movements: Movement[] = [];
    e.ids.forEach((id, i) => {
      const amount = e.values[i];
      if (amount > 0n) movements.push({ from: normalizeAccount(e.from), to: normalizeAccount(e.to), assetId: id, amount });
    });
    return { kind: e.event ?? (e.ids.length === 1 ? "TransferSingle" : "TransferBatch"), movements };
  });
}

/** Movements of transfer events (mint = from 0x0, burn = to 0x0, as in ERC-1155). Zero values are skipped. */
export function transferMovements(events: readonly TransferEvent[]): Movement[] {
  return transferSteps(events).flatMap((s) => s.movements);
}
