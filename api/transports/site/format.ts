/**
 * How the site writes numbers and instants for people. Money arrives as integer strings of the token's smallest unit
 * (or as decimal strings of whole units from the ranking reads) and stays in bigint or string arithmetic: a balance is
 * never rounded through a float. Probabilities are the API's decimals 0..1 and are only display.
 */

/** Digits with their thousands grouped by commas: "12345" → "12,345". */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A decimal string ("-1234.5678") cut (toward zero) to `fraction` digits, thousands grouped: "-1,234.56". Trailing
 * zeros of the fraction are dropped; a value that cuts to zero keeps no minus sign.
 */
export function decimalText(value: string, fraction = 2): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value);
  if (!m) return value;
  const [, sign, whole, frac = ""] = m;
  const cut = frac.slice(0, fraction).replace(/0+$/, "");
  const zero = /^0*$/.test(whole!) && cut === "";
  return `${zero ? "" : sign}${groupThousands(whole!.replace(/^0+(?=\d)/, ""))}${cut ? `.${cut}` : ""}`;
}

/** An integer string of base units as whole units: `unitsText("1234500000", 6)` is "1,234.5". */
export function unitsText(baseUnits: string, decimals: number, fraction = 2): string {
  const v = BigInt(baseUnits);
  const abs = v < 0n ? -v : v;
  const scale = 10n ** BigInt(decimals);
  const whole = (abs / scale).toString();
  const frac = decimals > 0 ? (abs % scale).toString().padStart(decimals, "0") : "";
  return decimalText(`${v < 0n ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`, fraction);
}

/** A probability 0..1 as a percentage with one decimal ("45.3%"), or an en dash when unknown. */
export function percentText(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return "–";
  return `${(Math.round(p * 1000) / 10).toFixed(1)}%`;
}

/** Basis points ("4500") as a percentage ("45%", "45.05%"). */
export function bpsText(bps: string | number): string {
  const n = Number(bps);
  return `${decimalText((n / 100).toFixed(2))}%`;
}

/** An RFC 3339 instant as "2027-01-15 08:00 UTC", or an en dash for null. */
export function instantText(iso: string | null | undefined): string {
  if (!iso) return "–";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const UNITS: readonly [string, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** How far an instant is from `nowMs`, in the largest whole unit: "in 3 days", "5 minutes ago", "just now". */
export function relativeText(iso: string | null | undefined, nowMs: number): string {
  if (!iso) return "";
  const delta = new Date(iso).getTime() - nowMs;
  if (Number.isNaN(delta)) return "";
  for (const [name, ms] of UNITS) {
    const n = Math.floor(Math.abs(delta) / ms);
    if (n >= 1) {
      const span = `${n} ${name}${n === 1 ? "" : "s"}`;
      return delta > 0 ? `in ${span}` : `${span} ago`;
    }
  }
  return "just now";
}

/** An address shortened for tables ("0x1234…abcd"); the full one goes in the link and its title. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** Enum words as a label: "CLOSED_PENDING" → "Closed pending"; a value of two letters stays as it is ("AI", "US"). */
export function enumLabel(value: string): string {
  if (value.length <= 2) return value;
  const s = value.replace(/_/g, " ").toLowerCase();
  return s.charAt(0).toUpperCase() + s.slice(1);
}
