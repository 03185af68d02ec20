/**
 * mulberry32: a small seeded PRNG, so a seed reproduces a run (demo agents, the ledger demo, benchmarks). Not for
 * anything that must be unpredictable. Beside the clock (clock.ts): the two sources a run is made reproducible by.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
