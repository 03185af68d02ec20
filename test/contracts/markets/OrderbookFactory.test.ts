import { expect } from "chai";
import hre from "hardhat";
import { zeroAddress } from "viem";
import { expectCustomError, expectErrorValues, logGas } from "./fixture";

async function fixture() {
  const [admin, ledger, stranger] = await hre.viem.getWalletClients();
  const pc = await hre.viem.getPublicClient();
  // notional-v1, router taker 100 bps, operator batch 100 bps, winnings exit 0: the venue's published defaults.
  const factory = await hre.viem.deployContract("OrderbookFactory", [admin.account.address, ledger.account.address, 0, 100, 100, 0]);
  const asStranger = await hre.viem.getContractAt("OrderbookFactory", factory.address, { client: { wallet: stranger } });
  return { admin, ledger, stranger, pc, factory, asStranger };
}

describe("OrderbookFactory", () => {
  it("holds the order-book fee defaults set at deployment, names its ledger and holds no collateral", async () => {
    const f = await fixture();
    expect(await f.factory.read.feeDefaults()).to.deep.equal([0, 0, 100, 100, 0]);
    expect((await f.factory.read.ledger()).toLowerCase()).to.equal(f.ledger.account.address.toLowerCase());
    expect([await f.factory.read.MAX_FEE_BPS(), await f.factory.read.PLACE_FEE_BPS()]).to.deep.equal([1_000, 0]);
    const [deployed] = await f.factory.getEvents.FeeDefaultsSet({ fromBlock: 0n });
    expect([
      deployed.args.feePolicyVersion,
      deployed.args.routerTakerFeeBps,
      deployed.args.operatorBatchFeeBps,
      deployed.args.winningsExitFeeBps,
    ]).to.deep.equal([0, 100, 100, 0]);
    // No payable entry point and no balance: committed markets keep their money in the CommittedLedger.
    const payable = (f.factory.abi as readonly { type: string; stateMutability?: string }[]).filter(
      (x) => x.type === "function" && x.stateMutability === "payable",
    );
    expect(payable).to.deep.equal([]);
    expect(await f.pc.getBalance({ address: f.factory.address })).to.equal(0n);
  });

  it("lets only the admin change the defaults, within the cap and the known fee policies, with an event", async () => {
    const f = await fixture();
    await expectCustomError(f.asStranger.write.setFeeDefaults([1, 50, 50, 0]), "AccessControlUnauthorizedAccount");
    await expectCustomError(f.factory.write.setFeeDefaults([2, 50, 50, 0]), "OrderbookFactoryUnknownFeePolicy");
    await expectErrorValues(f.factory.write.setFeeDefaults([255, 50, 50, 0]), "OrderbookFactoryUnknownFeePolicy(255)");
    await expectCustomError(f.factory.write.setFeeDefaults([0, 1_001, 0, 0]), "OrderbookFactoryFeeTooHigh");
    await expectErrorValues(f.factory.write.setFeeDefaults([1, 10, 20, 1_500]), "OrderbookFactoryFeeTooHigh(10, 20, 1500, 1000)");
    expect(await f.factory.read.feeDefaults()).to.deep.equal([0, 0, 100, 100, 0]);

    const hash = await f.factory.write.setFeeDefaults([1, 1_000, 80, 25]);
    await logGas(f.pc, "OrderbookFactory", "setFeeDefaults", hash);
    expect(await f.factory.read.feeDefaults()).to.deep.equal([1, 0, 1_000, 80, 25]);
    const events = await f.factory.getEvents.FeeDefaultsSet({ fromBlock: 0n });
    expect(events.map((e) => [e.args.feePolicyVersion, e.args.routerTakerFeeBps, e.args.operatorBatchFeeBps, e.args.winningsExitFeeBps])).to.deep.equal([
      [0, 100, 100, 0],
      [1, 1_000, 80, 25],
    ]);
  });

  it("refuses a zero admin or ledger, an unknown policy or a fee above the cap at deployment", async () => {
    const [admin, ledger] = await hre.viem.getWalletClients();
    const [a, l] = [admin.account.address, ledger.account.address];
    await expectCustomError(hre.viem.deployContract("OrderbookFactory", [zeroAddress, l, 0, 100, 100, 0]), "OrderbookFactoryZeroAddress");
    await expectCustomError(hre.viem.deployContract("OrderbookFactory", [a, zeroAddress, 0, 100, 100, 0]), "OrderbookFactoryZeroAddress");
    await expectCustomError(hre.viem.deployContract("OrderbookFactory", [a, l, 2, 100, 100, 0]), "OrderbookFactoryUnknownFeePolicy");
    await expectCustomError(hre.viem.deployContract("OrderbookFactory", [a, l, 0, 100, 1_001, 0]), "OrderbookFactoryFeeTooHigh");
  });
});
