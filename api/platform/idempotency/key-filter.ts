/**
 * A Bloom filter over (owner, Idempotency-Key): "certainly never added" or "maybe added", in a fixed memory whatever
 * the number of keys. It answers no false "never", so a key it has never seen needs no database read; a false "maybe"
 * only costs that read. As keys pile up it degrades gracefully towards "maybe" for every key, that is, towards reading
 * every time. A `Set` of the keys' hashes would grow without bound instead, and refuses to grow past 2^24 entries
 * (a day of keys at about 200 orders a second).
 */
export class KeyFilter {
  /** 2^27 bits (16 MiB): false "maybe" about 1 in a million at a million keys, 0.4% at ten million, 12% at thirty. */
  static readonly BITS_LOG2 = 27;
  /** Bits set per key. */
  static readonly PROBES = 4;

  readonly #words: Uint32Array;
  readonly #mask: number;

  constructor(bitsLog2 = KeyFilter.BITS_LOG2) {
    this.#words = new Uint32Array(2 ** Math.max(bitsLog2 - 5, 0));
    this.#mask = 2 ** bitsLog2 - 1;
  }

  add(owner: string, key: string): void {
    const [h1, h2] = hashes(owner, key);
    for (let i = 0; i < KeyFilter.PROBES; i++) {
      const bit = (h1 + Math.imul(i, h2)) & this.#mask;
      this.#words[bit >>> 5]! |= 1 << (bit & 31);
    }
  }

  /** False: this pair was certainly never added. True: it may have been. */
  mayHave(owner: string, key: string): boolean {
    const [h1, h2] = hashes(owner, key);
    for (let i = 0; i < KeyFilter.PROBES; i++) {
      const bit = (h1 + Math.imul(i, h2)) & this.#mask;
      if ((this.#words[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/**
 * Two 32-bit hashes of owner, a separator and key in one pass (FNV-1a, and the same with another offset basis and a
 * different prime); the probes are h1 + i·h2 (Kirsch and Mitzenmacher: two hashes serve for k). h2 is made odd so
 * that the probes differ.
 */
function hashes(owner: string, key: string): [number, number] {
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  const s = `${owner}\u0000${key}`;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x2127599b);
  }
  return [h1 >>> 0, (h2 | 1) >>> 0];
}
