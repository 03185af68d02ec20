/**
 * Validation of command fields: integers, addresses and order specs (lot, price, time in force). Commands arrive from
 * JSON and from JavaScript callers, so every field is checked at run time whatever its declared type.
 */
import type { Address } from "viem";
import { SUPPLY_ACCOUNT, normalizeAccount } from "../../decoder";
import { invalid } from "./rejection";
import type { OrderSpec } from "./types";

/** Orders trade in lots of 10,000 share units (0.01 share), so every notional is exact. */
export const LOT = 10_000n;
export const MAX_ORDER_SIZE = 10n ** 18n;
/** Most orders of one placeOrders / replaceQuotes command. */
export const MAX_BATCH = 100;

const ADDRESS_RE = /^0x[0-9a-f]{40}$/;
/** Addresses already validated (bounded: the accounts the engine has seen). */
const VALID_ADDRESSES = new Set<string>();
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const LOT_NUMBER = Number(LOT);

export function isInt(x: unknown, min: number, max: number): x is number {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= min && x <= max;
}

/** A trader's address, lower-cased; the zero address (the supply) is refused. */
export function addressOf(x: unknown, field: string): Address {
  if (typeof x !== "string") return invalid(`${field} must be an address`);
  if (VALID_ADDRESSES.has(x)) return x as Address;
  const a = normalizeAccount(x);
  if (!ADDRESS_RE.test(a) || a === SUPPLY_ACCOUNT) return invalid(`${field} must be a non-zero 0x address`);
  if (a === x && VALID_ADDRESSES.size < 1_000_000) VALID_ADDRESSES.add(a);
  return a;
}

/** size % LOT === 0n for size >= 0, without allocating a BigInt when size is a safe integer (then Number is exact). */
function isLotMultiple(size: bigint): boolean {
  return size <= MAX_SAFE ? Number(size) % LOT_NUMBER === 0 : size % LOT === 0n;
}

/** What is wrong with an order spec at `at` (GTD expiries must lie ahead), or undefined when nothing is. */
export function specError(s: OrderSpec, at: number): string | undefined {
  if (s === null || typeof s !== "object") return "order must be an object";
  if (s.outcome !== 0 && s.outcome !== 1) return "outcome must be 0 (YES) or 1 (NO)";
  if (s.action !== "buy" && s.action !== "sell") return "action must be buy or sell";
  if (!isInt(s.priceBps, 1, 9_999)) return "priceBps must be an integer 1..9999";
  if (typeof s.size !== "bigint" || s.size <= 0n || s.size > MAX_ORDER_SIZE || !isLotMultiple(s.size)) {
    return `size must be a positive multiple of ${LOT} (0.01 share) up to ${MAX_ORDER_SIZE}`;
  }
  if (s.tif !== "GTC" && s.tif !== "GTD" && s.tif !== "IOC" && s.tif !== "FOK") return "tif must be GTC, GTD, IOC or FOK";
  if (s.tif === "GTD") {
    if (!isInt(s.expiresAt, 0, Number.MAX_SAFE_INTEGER)) return "GTD needs expiresAt (ms)";
    if (s.expiresAt <= at) return "expiresAt must be in the future";
  } else if (s.expiresAt !== undefined) return "expiresAt is only for GTD";
  if (s.postOnly !== undefined && typeof s.postOnly !== "boolean") return "postOnly must be a boolean";
  if (s.postOnly && (s.tif === "IOC" || s.tif === "FOK")) return "postOnly cannot be IOC or FOK";
  if (s.clientOrderId !== undefined && (typeof s.clientOrderId !== "string" || s.clientOrderId.length < 1 || s.clientOrderId.length > 64)) {
    return "clientOrderId must be 1..64 characters";
  }
  return undefined;
}

/**
 * Checks the orders of a batch before any is placed: each spec (a refusal names the order: `orders[i]: ...` with
 * `index`) and clientOrderIds unique within the batch. `minimum` is 1 for placeOrders, 0 for replaceQuotes.
 */
export function checkBatch(orders: unknown, minimum: 0 | 1, at: number): OrderSpec[] {
  if (!Array.isArray(orders) || orders.length > MAX_BATCH) return invalid(`orders must be an array of at most ${MAX_BATCH}`);
  if (orders.length < minimum) return invalid("orders must not be empty");
  const specs = orders as OrderSpec[];
  const seen = new Set<string>();
  specs.forEach((s, i) => {
    const error = specError(s, at);
    if (error !== undefined) invalid(`orders[${i}]: ${error}`, { index: i });
    if (s.clientOrderId !== undefined) {
      if (seen.has(s.clientOrderId)) invalid(`orders[${i}]: duplicate clientOrderId`, { index: i });
      seen.add(s.clientOrderId);
    }
  });
  return specs;
}
