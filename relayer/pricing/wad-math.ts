/**
 * Bit-exact bigint ports of solady's FixedPointMathLib.expWad / lnWad (solady 0.1.26, the version LmsrMarket
 * compiles against). Both are deterministic integer algorithms; every step here mirrors the Solidity/assembly one,
 * including truncating signed division (`/`, `sdiv`), flooring arithmetic shifts (`>>`, `sar`) and 256-bit
 * wrapping of assembly `mul`/`add`/`sub` (never reached in the valid domain, kept so the port cannot drift).
 */

export const WAD = 10n ** 18n;

const wrap = (v: bigint): bigint => BigInt.asIntN(256, v);

/** exp(x / 1e18) * 1e18, as solady expWad: 0 at and below ~-41.45 WAD, throws ExpOverflow from ~135.3 WAD. */
export function expWad(x: bigint): bigint {
  if (x <= -41446531673892822313n) return 0n;
  if (x >= 135305999368893231589n) throw new RangeError("ExpOverflow");
  x = (x << 78n) / 5n ** 18n;
  const k = ((x << 96n) / 54916777467707473351141471128n + 2n ** 95n) >> 96n;
  x = x - k * 54916777467707473351141471128n;
  let y = x + 1346386616545796478920950773328n;
  y = ((y * x) >> 96n) + 57155421227552351082224309758442n;
  let p = y + x - 94201549194550492254356042504812n;
  p = ((p * y) >> 96n) + 28719021644029726153956944680412240n;
  p = p * x + (4385272521454847904659076985693276n << 96n);
  let q = x - 2855989394907223263936484059900n;
  q = ((q * x) >> 96n) + 50020603652535783019961831881945n;
  q = ((q * x) >> 96n) - 533845033583426703283633433725380n;
  q = ((q * x) >> 96n) + 3604857256930695427073651918091429n;
  q = ((q * x) >> 96n) - 14423608567350463180887372962807573n;
  q = ((q * x) >> 96n) + 26449188498355588339934803723976023n;
  const r = p / q; // sdiv: truncates toward zero, as BigInt division does
  return BigInt.asUintN(256, r * 3822833074963236453042738258902158003155416615667n) >> (195n - k);
}

/** ln(x / 1e18) * 1e18, as solady lnWad; throws LnWadUndefined for x <= 0. */
export function lnWad(x: bigint): bigint {
  if (x <= 0n) throw new RangeError("LnWadUndefined");
  if (x >= 1n << 255n) throw new RangeError("LnWadUndefined"); // not a positive int256
  // r = 255 - floor(log2(x)) (the assembly gets it from a lookup table; the value is the same)
  const r = 255n - BigInt(x.toString(2).length - 1);
  x = BigInt.asUintN(256, x << r) >> 159n;
  // p := sub(sar(96, mul(add(c3, sar(96, mul(add(c2, sar(96, mul(add(c1, x), x))), x))), x)), c4)
  let p = wrap(wrap(3273285459638523848632254066296n + x) * x) >> 96n;
  p = wrap(wrap(24828157081833163892658089445524n + p) * x) >> 96n;
  p = wrap(wrap(43456485725739037958740375743393n + p) * x) >> 96n;
  p = wrap(p - 11111509109440967052023855526967n);
  p = wrap((wrap(p * x) >> 96n) - 45023709667254063763336534515857n);
  p = wrap((wrap(p * x) >> 96n) - 14706773417378608786704636184526n);
  p = wrap(wrap(p * x) - (795164235651350426258249787498n << 96n));
  let q = 5573035233440673466300451813936n + x;
  q = wrap(71694874799317883764090561454958n + (wrap(x * q) >> 96n));
  q = wrap(283447036172924575727196451306956n + (wrap(x * q) >> 96n));
  q = wrap(401686690394027663651624208769553n + (wrap(x * q) >> 96n));
  q = wrap(204048457590392012362485061816622n + (wrap(x * q) >> 96n));
  q = wrap(31853899698501571402653359427138n + (wrap(x * q) >> 96n));
  q = wrap(909429971244387300277376558375n + (wrap(x * q) >> 96n));
  p = p / q;
  p = wrap(1677202110996718588342820967067443963516166n * p);
  p = wrap(wrap(16597577552685614221487285958193947469193820559219878177908093499208371n * (159n - r)) + p);
  p = wrap(600920179829731861736702779321621459595472258049074101567377883020018308n + p);
  return p >> 174n;
}
