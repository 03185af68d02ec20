import { expect } from "chai";
import hre from "hardhat";
import { zeroHash, type Address } from "viem";
import { SEED, TERMS, expectCustomError, expectErrorValues, logGas, marketFixture } from "./fixture";

describe("LmsrFactory", () => {
  it("creates a market with b = seed / ln(n), registers its id and emits everything an indexer needs", async () => {
    for (const n of [2, 3]) {
      const f = await marketFixture(n);
      const a = f.created.args;
      expect(a.marketId).to.equal(1n);
      expect(a.outcomeCount).to.equal(n);
      expect(a.seed).to.equal(SEED);
      expect(Number(a.b)).to.be.closeTo(Number(SEED) / Math.log(n), 2);
      expect(a.closeTime).to.equal(f.closeTime);
      expect(a.question).to.equal("Will it rain?");
      expect(a.termsHash).to.equal(TERMS);
      expect([a.buyFeeBps, a.sellExitFeeBps, a.winningsExitFeeBps]).to.deep.equal([0, 200, 100]);
      console.log(JSON.stringify({ contract: "LmsrFactory", entry: `createMarket(${n} outcomes)`, gas: Number(f.createGas) }));
      if (n === 2) await logGas(f.pc, "LmsrFactory", "setCollateral(enable)", f.setCollateralHash);
      expect(await f.outcome.read.marketOf([1n])).to.equal(a.market);
      expect(await f.usdc.read.balanceOf([a.market!])).to.equal(SEED);
      const p = await f.market.read.prices();
      for (const x of p) expect(Number(x) / 1e18).to.be.closeTo(1 / n, 1e-12);
    }
  });

  it("refuses bad creations: collateral not enabled, past close time, tiny seed", async () => {
    const f = await marketFixture(2);
    const asCreator = await hre.viem.getContractAt("LmsrFactory", f.factory.address, { client: { wallet: f.creator } });
    await expectCustomError(asCreator.write.createMarket([f.outcome.address, SEED, f.closeTime, TERMS, "q"]), "LmsrFactoryCollateralNotEnabled");
    await expectCustomError(asCreator.write.createMarket([f.usdc.address, SEED, 1n, TERMS, "q"]), "LmsrFactoryBadCloseTime");
    await expectCustomError(asCreator.write.createMarket([f.usdc.address, 10n, f.closeTime, TERMS, "q"]), "LmsrFactorySeedTooSmall");
    await logGas(f.pc, "LmsrFactory", "setTreasury", await f.factory.write.setTreasury([f.stranger.account.address]));
    expect((await f.factory.read.treasury()).toLowerCase()).to.equal(f.stranger.account.address.toLowerCase());
  });

  it("holds owner-set fee defaults, capped, and stamps the current ones into each new market", async () => {
    const f = await marketFixture(2, { sell: 100, win: 0 });
    // The constructor's defaults, announced at deployment.
    const [deployed] = await f.factory.getEvents.FeeDefaultsSet({ fromBlock: 0n });
    expect([deployed.args.sellExitFeeBps, deployed.args.winningsExitFeeBps]).to.deep.equal([100, 0]);
    expect(await f.factory.read.feeDefaults()).to.deep.equal([0, 100, 0]);
    expect([await f.market.read.sellExitFeeBps(), await f.market.read.winningsExitFeeBps()]).to.deep.equal([100, 0]);

    // Only the admin sets them, each at most MAX_FEE_BPS; the error names both proposed values and the cap.
    const asStranger = await hre.viem.getContractAt("LmsrFactory", f.factory.address, { client: { wallet: f.stranger } });
    await expectCustomError(asStranger.write.setFeeDefaults([50, 50]), "AccessControlUnauthorizedAccount");
    expect(await f.factory.read.MAX_FEE_BPS()).to.equal(1_000);
    await expectCustomError(f.factory.write.setFeeDefaults([1_001, 0]), "LmsrFactoryFeeTooHigh");
    await expectErrorValues(f.factory.write.setFeeDefaults([7, 1_001]), "LmsrFactoryFeeTooHigh(7, 1001, 1000)");
    expect(await f.factory.read.feeDefaults()).to.deep.equal([0, 100, 0]);
    const setHash = await f.factory.write.setFeeDefaults([1_000, 250]);
    await logGas(f.pc, "LmsrFactory", "setFeeDefaults", setHash);
    const changes = await f.factory.getEvents.FeeDefaultsSet({ fromBlock: 0n });
    expect(changes.map((e) => [e.args.sellExitFeeBps, e.args.winningsExitFeeBps])).to.deep.equal([
      [100, 0],
      [1_000, 250],
    ]);
    expect(await f.factory.read.feeDefaults()).to.deep.equal([0, 1_000, 250]);

    // A market created now is stamped with the new defaults; the earlier market keeps its own.
    const asCreator = await hre.viem.getContractAt("LmsrFactory", f.factory.address, { client: { wallet: f.creator } });
    await asCreator.write.createMarket([f.usdc.address, SEED, f.closeTime, zeroHash, "Will it snow?"]);
    const created = await f.factory.getEvents.MarketCreated({}, { fromBlock: 0n });
    expect(created).to.have.length(2);
    const second = created[1].args;
    expect([second.buyFeeBps, second.sellExitFeeBps, second.winningsExitFeeBps, second.termsHash]).to.deep.equal([0, 1_000, 250, zeroHash]);
    const m2 = await hre.viem.getContractAt("LmsrMarket", second.market as Address);
    expect([await m2.read.sellExitFeeBps(), await m2.read.winningsExitFeeBps(), await m2.read.buyFeeBps()]).to.deep.equal([1_000, 250, 0]);
    expect([await f.market.read.sellExitFeeBps(), await f.market.read.winningsExitFeeBps()]).to.deep.equal([100, 0]);
  });

  it("refuses a deployment with a fee default above the cap", async () => {
    const [admin, treasury] = await hre.viem.getWalletClients();
    const outcome = await hre.viem.deployContract("OutcomeToken", [admin.account.address, "uri"]);
    await expectCustomError(
      hre.viem.deployContract("LmsrFactory", [admin.account.address, outcome.address, 2, treasury.account.address, 0, 5_000]),
      "LmsrFactoryFeeTooHigh",
    );
  });

  it("emits the terms hash without reserving it: the same hash in two creations is not refused", async () => {
    // Reserving hashes on chain would let anyone who sees a pending creation block it by front-running its hash; the
    // service instead binds a receipt to a negotiation by checking hash and creator in the MarketCreated log.
    const f = await marketFixture(3);
    const asTrader = await hre.viem.getContractAt("LmsrFactory", f.factory.address, { client: { wallet: f.trader } });
    await asTrader.write.createMarket([f.usdc.address, SEED, f.closeTime, TERMS, "Will it rain?"]);
    const created = await f.factory.getEvents.MarketCreated({}, { fromBlock: 0n });
    expect(created.map((e) => [e.args.termsHash, e.args.creator?.toLowerCase()])).to.deep.equal([
      [TERMS, f.creator.account.address.toLowerCase()],
      [TERMS, f.trader.account.address.toLowerCase()],
    ]);
  });
});
