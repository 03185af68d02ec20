/** The units people type, converted exactly to the API's: probabilities to basis points, shares to base units. */
import { parseUnits } from "viem";
import { UsageError } from "./context";

/** A probability 0..1 given as a decimal string ("0.55") in basis points, exactly ("5500"). */
export function probabilityToBps(p: string): string {
  if (!/^(0(\.\d{1,4})?|1(\.0{1,4})?|\.\d{1,4})$/.test(p)) throw new UsageError(`--price must be a probability such as 0.55 (at most 4 decimals); got ${p}`);
  return parseUnits(p.startsWith(".") ? `0${p}` : p, 4).toString();
}

/** Whole shares given by a person ("2.5") in base units of the market's collateral, exactly. */
export function sharesOf(shares: string, decimals: number): string {
  if (!/^\d+(\.\d+)?$/.test(shares)) throw new UsageError(`shares must be a number such as 10 or 2.5; got ${shares}`);
  if ((shares.split(".")[1] ?? "").length > decimals) throw new UsageError(`shares have at most ${decimals} decimals; got ${shares}`);
  const units = parseUnits(shares, decimals);
  if (units === 0n) throw new UsageError("shares must be more than zero");
  return units.toString();
}
