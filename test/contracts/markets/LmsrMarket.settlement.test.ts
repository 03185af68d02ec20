import { expect } from "chai";
import hre from "hardhat";
import fc from "fast-check";
import { type Address } from "viem";
import { BIG, expectCustomError, logGas, marketFixture as fixture } from "./fixture";

/** Settlement of an LmsrMarket: resolve and void by the factory's resolver, claims (redeem, redeemAll, previewClaim)
 * and the creator's surplus sweep. */
describe("LmsrMarket settlement", () => {
  it("resolves after close by a resolver only and once, pays winners less the winnings fee, and sweeps the surplus to the creator", async () => {
    const f = await fixture(3);
    const m = await f.as(f.trader);
    const s = await f.as(f.stranger);
    const buyHash = await m.write.buy([1, 300_000_000n, BIG, f.trader.account.address]);
    await s.write.buy([2, 200_000_000n, BIG, f.stranger.account.address]);
    const sellHash = await s.write.sell([2, 50_000_000n, 0n, f.stranger.account.address]);
    await expectCustomError(f.asResolver.write.resolve([1]), "LmsrNotClosed");
    await expectCustomError(s.write.voidMarket(), "LmsrNotResolver");
    await expectCustomError(s.write.resolve([1]), "LmsrNotResolver");
    await expectCustomError(m.write.redeem([1]), "LmsrNotSettled");
    await expectCustomError(m.write.withdrawSurplus(), "LmsrNotSettled");
    expect(await f.market.read.surplus()).to.equal(0n);
    await f.close();
    await expectCustomError(m.write.buy([0, 1n, BIG, f.trader.account.address]), "LmsrMarketClosed");
    await expectCustomError(s.write.resolve([1]), "LmsrNotResolver");
    await expectCustomError(f.asResolver.write.resolve([3]), "LmsrInvalidOutcome");
    const resolveHash = await f.asResolver.write.resolve([1]);
    expect(await f.market.read.state()).to.equal(1);
    expect(await f.market.read.winningOutcome()).to.equal(1);
    await expectCustomError(f.asResolver.write.resolve([1]), "LmsrAlreadySettled");
    await expectCustomError(f.asResolver.write.resolve([2]), "LmsrAlreadySettled");
    await expectCustomError(f.asResolver.write.voidMarket(), "LmsrAlreadySettled");
    const before = await f.usdc.read.balanceOf([f.trader.account.address]);
    const redeemHash = await m.write.redeem([1]);
    expect((await f.usdc.read.balanceOf([f.trader.account.address])) - before).to.equal(300_000_000n - 3_000_000n);
    await s.write.redeem([2]);
    // Anyone may trigger the sweep (the service pays the gas); the money goes to the creator only.
    const creatorBefore = await f.usdc.read.balanceOf([f.creator.account.address]);
    const surplus = await f.market.read.surplus();
    expect(surplus > 0n).to.equal(true);
    const withdrawHash = await m.write.withdrawSurplus();
    expect((await f.usdc.read.balanceOf([f.creator.account.address])) - creatorBefore).to.equal(surplus);
    expect(await f.usdc.read.balanceOf([f.market.address])).to.equal(0n);
    const [swept] = await f.market.getEvents.SurplusWithdrawn({}, { fromBlock: 0n });
    expect([swept.args.creator?.toLowerCase(), swept.args.amount]).to.deep.equal([f.creator.account.address.toLowerCase(), surplus]);
    // A second sweep finds nothing, sends nothing and emits nothing.
    await (await f.as(f.creator)).write.withdrawSurplus();
    expect(await f.market.getEvents.SurplusWithdrawn({}, { fromBlock: 0n })).to.have.length(1);
    for (const [entry, hash] of [
      ["buy", buyHash],
      ["sell", sellHash],
      ["resolve", resolveHash],
      ["redeem(winner, exit fee)", redeemHash],
      ["withdrawSurplus(resolved)", withdrawHash],
    ] as const)
      await logGas(f.pc, "LmsrMarket(ternary)", entry, hash);
  });

  it("voids before close: every share redeems at 1/n and the market stays solvent", async () => {
    const f = await fixture(2);
    const m = await f.as(f.trader);
    await m.write.buy([0, 400_000_000n, BIG, f.trader.account.address]);
    const voidHash = await f.asResolver.write.voidMarket();
    expect(await f.market.read.state()).to.equal(2);
    await expectCustomError(f.asResolver.write.resolve([0]), "LmsrAlreadySettled");
    const before = await f.usdc.read.balanceOf([f.trader.account.address]);
    const redeemHash = await m.write.redeem([0]);
    expect((await f.usdc.read.balanceOf([f.trader.account.address])) - before).to.equal(200_000_000n);
    await expectCustomError(m.write.redeem([0]), "LmsrZeroShares");
    const withdrawHash = await (await f.as(f.creator)).write.withdrawSurplus();
    expect(await f.usdc.read.balanceOf([f.market.address])).to.equal(0n);
    for (const [entry, hash] of [
      ["voidMarket", voidHash],
      ["redeem(void)", redeemHash],
      ["withdrawSurplus(void)", withdrawHash],
    ] as const) {
      await logGas(f.pc, "LmsrMarket(binary)", entry, hash);
    }
  });

  it("voids after close (the resolver's neutral outcome once trading has stopped)", async () => {
    const f = await fixture(3);
    const m = await f.as(f.trader);
    await m.write.buy([2, 9_000_001n, BIG, f.trader.account.address]);
    await f.close();
    await f.asResolver.write.voidMarket();
    expect(await f.market.read.state()).to.equal(2);
    const [voided] = await f.market.getEvents.Voided({}, { fromBlock: 0n });
    expect(voided.args.resolver?.toLowerCase()).to.equal(f.admin.account.address.toLowerCase());
    expect(await f.market.read.previewClaim([f.trader.account.address])).to.deep.equal([3_000_000n, 0n]);
  });

  it("previewClaim shows what redeemAll pays; redeemAll redeems every outcome held, for the holder or an approved operator", async () => {
    const f = await fixture(3);
    const [alice, bob] = f.holders;
    const a = await f.as(alice);
    const b = await f.as(bob);
    await a.write.buy([0, 100_000_000n, BIG, alice.account.address]);
    await a.write.buy([1, 70_000_003n, BIG, alice.account.address]);
    await b.write.buy([1, 5_000_000n, BIG, bob.account.address]);
    expect(await f.market.read.previewClaim([alice.account.address])).to.deep.equal([0n, 0n]);
    await expectCustomError(a.write.redeemAll([alice.account.address]), "LmsrNotSettled");
    await f.close();
    await f.asResolver.write.resolve([1]);
    // Winning 70_000_003 shares, 100 bps winnings fee rounded up: 700_001; the losing outcome-0 shares pay nothing.
    expect(await f.market.read.previewClaim([alice.account.address])).to.deep.equal([70_000_003n - 700_001n, 700_001n]);
    expect(await f.market.read.previewClaim([f.stranger.account.address])).to.deep.equal([0n, 0n]);

    // A stranger may not redeem someone else's shares; nothing held: LmsrZeroShares.
    const s = await f.as(f.stranger);
    await expectCustomError(s.write.redeemAll([alice.account.address]), "LmsrNotHolderOrOperator");
    await expectCustomError(s.write.redeemAll([f.stranger.account.address]), "LmsrZeroShares");

    const usdc = (who: Address) => f.usdc.read.balanceOf([who]);
    const [aliceBefore, treasuryBefore] = [await usdc(alice.account.address), await usdc(f.treasury.account.address)];
    const redeemAllHash = await a.write.redeemAll([alice.account.address]);
    expect((await usdc(alice.account.address)) - aliceBefore).to.equal(70_000_003n - 700_001n);
    expect((await usdc(f.treasury.account.address)) - treasuryBefore).to.equal(700_001n);
    const redeemed = await f.market.getEvents.Redeemed({}, { fromBlock: 0n });
    expect(redeemed.map((e) => [e.args.account?.toLowerCase(), e.args.outcome, e.args.shares, e.args.payout, e.args.fee])).to.deep.equal([
      [alice.account.address.toLowerCase(), 0, 100_000_000n, 0n, 0n],
      [alice.account.address.toLowerCase(), 1, 70_000_003n, 70_000_003n - 700_001n, 700_001n],
    ]);
    expect(await f.market.read.previewClaim([alice.account.address])).to.deep.equal([0n, 0n]);
    expect(await f.market.read.outstanding()).to.deep.equal([0n, 5_000_000n, 0n]);

    // Bob approves an operator on the OutcomeToken (as the router recipe does); the operator's call pays Bob.
    const outcomeAsBob = await hre.viem.getContractAt("OutcomeToken", f.outcome.address, { client: { wallet: bob } });
    await outcomeAsBob.write.setApprovalForAll([f.stranger.account.address, true]);
    const [bobBefore, strangerBefore] = [await usdc(bob.account.address), await usdc(f.stranger.account.address)];
    await s.write.redeemAll([bob.account.address]);
    expect((await usdc(bob.account.address)) - bobBefore).to.equal(5_000_000n - 50_000n);
    expect(await usdc(f.stranger.account.address)).to.equal(strangerBefore);
    await logGas(f.pc, "LmsrMarket(ternary)", "redeemAll(resolved, a losing and a winning outcome)", redeemAllHash);
  });

  it("after a void, previewClaim and redeemAll pay floor(shares / n) per outcome held, no fee", async () => {
    const f = await fixture(3);
    const [alice] = f.holders;
    const a = await f.as(alice);
    for (const [o, shares] of [
      [0, 10n],
      [1, 11n],
      [2, 3_000_000_002n],
    ] as const)
      await a.write.buy([o, shares, BIG, alice.account.address]);
    await f.asResolver.write.voidMarket();
    const expected = 10n / 3n + 11n / 3n + 3_000_000_002n / 3n;
    expect(await f.market.read.previewClaim([alice.account.address])).to.deep.equal([expected, 0n]);
    const before = await f.usdc.read.balanceOf([alice.account.address]);
    const hash = await a.write.redeemAll([alice.account.address]);
    expect((await f.usdc.read.balanceOf([alice.account.address])) - before).to.equal(expected);
    await logGas(f.pc, "LmsrMarket(ternary)", "redeemAll(void, 3 outcomes)", hash);
  });

  for (const n of [2, 3]) {
    it(`property (${n} outcomes): after any trades and settlement, a sweep at any point leaves every redemption payable, each paying previewClaim`, async () => {
      let redemptions = 0;
      let sweptBeforeRedemptions = 0;
      const trade = fc.record({
        who: fc.integer({ min: 0, max: 3 }),
        outcome: fc.integer({ min: 0, max: n - 1 }),
        buy: fc.boolean(),
        shares: fc.bigInt({ min: 1n, max: 2_000_000_000n }),
      });
      await fc.assert(
        fc.asyncProperty(
          // The first trade buys, so every run has a holder to redeem: the coverage checks below then never depend on
          // the draw (20 runs once gave 19 redemptions where the check wants more than 20).
          fc.array(trade, { minLength: 1, maxLength: 8 }).map(([first, ...rest]) => [{ ...first, buy: true }, ...rest]),
          fc.option(fc.integer({ min: 0, max: n - 1 }), { nil: null }),
          fc.boolean(),
          fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 2 }),
          fc.boolean(),
          async (trades, winner, closeFirst, sweepsAt, perOutcome) => {
            const f = await fixture(n, { sell: 150, win: 333 });
            const holders = f.holders.slice(0, 4);
            const markets = await Promise.all(holders.map((h) => f.as(h)));
            const usdc = (who: Address) => f.usdc.read.balanceOf([who]);
            const held = (who: Address, o: number) => f.outcome.read.balanceOf([who, (1n << 8n) | BigInt(o)]);
            for (const t of trades) {
              const me = holders[t.who].account.address;
              if (t.buy) await markets[t.who].write.buy([t.outcome, t.shares, BIG, me]);
              else {
                const shares = t.shares > (await held(me, t.outcome)) ? await held(me, t.outcome) : t.shares;
                if (shares > 0n) await markets[t.who].write.sell([t.outcome, shares, 0n, me]);
              }
            }
            if (winner !== null || closeFirst) await f.close();
            if (winner === null) await f.asResolver.write.voidMarket();
            else await f.asResolver.write.resolve([winner]);

            const treasury = f.treasury.account.address;
            const creator = f.creator.account.address;
            const sweep = async () => {
              const expected = await f.market.read.surplus();
              const before = await usdc(creator);
              await markets[0].write.withdrawSurplus();
              expect((await usdc(creator)) - before).to.equal(expected);
              if (expected > 0n && redeemedHere === 0) sweptBeforeRedemptions++;
            };
            let redeemedHere = 0;
            for (let i = 0; i < holders.length; i++) {
              if (sweepsAt.includes(i)) await sweep();
              const me = holders[i].account.address;
              const [payout, fee] = await f.market.read.previewClaim([me]);
              const [mine, fees] = [await usdc(me), await usdc(treasury)];
              let any = false;
              for (let o = 0; o < n; o++) any ||= (await held(me, o)) > 0n;
              if (!any) {
                expect([payout, fee]).to.deep.equal([0n, 0n]);
                continue;
              }
              if (perOutcome) {
                for (let o = 0; o < n; o++) if ((await held(me, o)) > 0n) await markets[i].write.redeem([o]);
              } else await markets[i].write.redeemAll([me]);
              expect([(await usdc(me)) - mine, (await usdc(treasury)) - fees]).to.deep.equal([payout, fee]);
              redeemedHere++;
              redemptions++;
            }
            await sweep();
            // Nothing is left behind: every share redeemed, every remainder swept to the creator.
            expect(await f.market.read.outstanding()).to.deep.equal(Array(n).fill(0n));
            expect(await usdc(f.market.address)).to.equal(0n);
          },
        ),
        { numRuns: 20 },
      );
      // The runs really exercised the claim: redemptions happened, and sweeps came before some of them.
      expect(redemptions).to.be.greaterThan(20);
      // How many runs sweep before their first redemption depends on the draw: "more than 3 of 20" failed a CI run
      // that drew exactly 3. "At least one" still proves the path ran, and only a draw with none fails it.
      expect(sweptBeforeRedemptions).to.be.greaterThan(0);
    });
  }
});
