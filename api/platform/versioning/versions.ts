/**
 * API date-versions (spec "Versioning"). v1 changes are additive; each published change gets a date here and an
 * entry in the change feed. A client pins with `Svc-Version: YYYY-MM-DD` and gets the newest version on or before it.
 */
/** Where the v1 agent API is mounted (spec "Base URL"); operations' paths are relative to it unless `root`. */
export const API_BASE_PATH = "/api/agent/v1";

export const API_VERSIONS = ["2026-11-01"] as const;
export const CURRENT_VERSION: string = API_VERSIONS[API_VERSIONS.length - 1];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The version a pin resolves to, or null when the pin is malformed or older than every version. */
export function resolveVersion(pin: string | undefined): string | null {
  if (pin === undefined || pin === "") return CURRENT_VERSION;
  if (!DATE.test(pin) || !isCalendarDate(pin)) return null;
  const found = [...API_VERSIONS].reverse().find((v) => v <= pin);
  return found ?? null;
}

/** `Date.parse` rolls a day past the month's end over (2026-02-30 is March 2): round-trip to refuse such dates. */
function isCalendarDate(day: string): boolean {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === day;
}
