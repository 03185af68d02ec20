/**
 * The one schema for integers carried as decimal strings at the JSON edge (money, sizes, share counts, prices in
 * basis points). The digit pattern is checked first and aborts the parse when it fails, so the bigint bounds below
 * never see a string like "1e6" or "0x10" (a `BigInt(...)` refinement after a failed regex throws, which answered 500
 * before; docs/security.md). Every bound is checked on the parsed bigint, never on a float.
 */
import { z } from "zod";

export interface IntegerStringOptions {
  /** Smallest value allowed (default 0). */
  min?: bigint;
  /** Largest value allowed (default: none beyond `maxDigits`). */
  max?: bigint;
  /** The value must be a multiple of this (e.g. the order-book lot). */
  multipleOf?: bigint;
  /** Most digits accepted before any bigint is made (default 78: a uint256). */
  maxDigits?: number;
  /** What the number is, for messages ("size", "shares"). */
  what?: string;
}

/** A decimal integer string without sign, exponent or leading zeros, bounded as `opts` says; it parses to the string. */
export function integerString(opts: IntegerStringOptions = {}) {
  const { min = 0n, max, multipleOf, maxDigits = 78, what = "value" } = opts;
  const pattern = new RegExp(`^(0|[1-9]\\d{0,${maxDigits - 1}})$`);
  let schema = z.string().regex(pattern, {
    message: `${what} must be a non-negative integer string of at most ${maxDigits} digits (no sign, exponent or decimal point)`,
    abort: true,
  });
  if (min > 0n) schema = schema.refine((s) => BigInt(s) >= min, { message: `${what} must be at least ${min}`, abort: true });
  if (max !== undefined) schema = schema.refine((s) => BigInt(s) <= max, { message: `${what} must be at most ${max}`, abort: true });
  if (multipleOf !== undefined) schema = schema.refine((s) => BigInt(s) % multipleOf === 0n, `${what} must be a multiple of ${multipleOf}`);
  return schema;
}
