/** Durations as an operator types them: `90s`, `2h`, `3d`, `1h30m`, `500ms`, `1w` (docs/dev-chain.md). */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const PART = /(\d+)(ms|s|m|h|d|w)/y;

/** Milliseconds of `text`, or null when it is not a duration of whole units. */
export function parseDuration(text: string): number | null {
  const s = text.trim();
  if (s === "") return null;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < s.length) {
    const m = PART.exec(s);
    if (!m) return null;
    total += Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  }
  return Number.isSafeInteger(total) ? total : null;
}

/** `3d 2h 0m 5s`-style text of a millisecond count, largest units first (for people). */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
    ["ms", 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join(" ");
}
