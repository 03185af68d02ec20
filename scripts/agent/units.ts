/** The units people type, converted exactly to the API's: probabilities to basis points, shares to base units. */
import { parseUnits } from "viem";
import { parseDuration } from "../../api/domain/dev-chain/duration";
import { UsageError } from "./context";

/** A probability 0..1 given as a decimal string ("0.55") in basis points, exactly ("5500"). */
export function probabilityToBps(p: string): string {
  if (!/^(0(\.\d{1,4})?|1(\.0{1,4})?|\.\d{1,4})$/.test(p)) throw new UsageError(`--price must be a probability such as 0.55 (at most 4 decimals); got ${p}`);
  return parseUnits(p.startsWith(".") ? `0${p}` : p, 4).toString();
}

/** Whole shares given by a person ("2.5") in base units of the market's collateral, exactly. */
export function sharesOf(shares: string, decimals: number): string {
  return unitsOf(shares, decimals, "shares");
}

/** An amount given by a person in whole units ("2.5" shares, "100" PM) in base units, exactly; never zero. */
export function unitsOf(amount: string, decimals: number, what: string): string {
  if (!/^\d+(\.\d+)?$/.test(amount)) throw new UsageError(`${what} must be a number such as 10 or 2.5; got ${amount}`);
  if ((amount.split(".")[1] ?? "").length > decimals) throw new UsageError(`${what} have at most ${decimals} decimals; got ${amount}`);
  const units = parseUnits(amount, decimals);
  if (units === 0n) throw new UsageError(`${what} must be more than zero`);
  return units.toString();
}

/**
 * An instant a person gives: a duration from `nowMs` ("90m", "48h", "7d", "2w") or an RFC 3339 instant; epoch ms.
 * `nowMs` is the service's time (GET /time), so a relative close means the same to the service as to the person.
 */
export function instantOf(text: string, nowMs: number, what: string): number {
  const rel = parseDuration(text);
  if (rel !== null) return nowMs + rel;
  const at = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at))
    throw new UsageError(`${what} must be a duration from now such as 48h, 7d or 2w, or an instant such as 2027-03-01T12:00:00Z; got ${text}`);
  return at;
}
