import { expect } from "chai";
import hre from "hardhat";
import type { Abi, Address, Hex } from "viem";
import { participationDistributorAbi } from "../../../generated/abis";
import { distributorDomain, identityKey, intentKey, participationReleaseId, VOUCHER_TYPES, type Voucher } from "../../../relayer/participation-release";
import { expectRevert } from "../../support/revert";

const abi = participationDistributorAbi as unknown as Abi;

async function logGas(entry: string, hash: Hex) {
  const pc = await hre.viem.getPublicClient();
  console.log(JSON.stringify({ contract: "ParticipationDistributor", entry, gas: Number((await pc.waitForTransactionReceipt({ hash })).gasUsed) }));
}
const POOL = 1_000_000_000n;

async function setUp() {
  const [admin, signer, holder, relayer, stranger] = await hre.viem.getWalletClients();
  const pc = await hre.viem.getPublicClient();
  const chainId = await pc.getChainId();
  const pm = await hre.viem.deployContract("PlayMoney", [admin.account.address]);
  const releaseId = participationReleaseId(chainId);
  const dist = await hre.viem.deployContract("ParticipationDistributor", [pm.address, releaseId, admin.account.address, signer.account.address]);
  await pm.write.grantRole([await pm.read.MINTER_ROLE(), admin.account.address]);
  await pm.write.mint([dist.address, POOL]);
  const now = BigInt((await pc.getBlock()).timestamp);
  const voucher = (over: Partial<Voucher> = {}): Voucher => ({
    identity: identityKey("id-1"),
    recipient: holder.account.address,
    cumulativeAmount: 10_000_000n,
    intentId: intentKey("intent-1"),
    expiresAt: now + 3_600n,
    ...over,
  });
  const sign = (v: Voucher, by = signer) =>
    by.signTypedData({ account: by.account, domain: distributorDomain(chainId, dist.address), types: VOUCHER_TYPES, primaryType: "Voucher", message: v });
  const as = (w: typeof admin) => hre.viem.getContractAt("ParticipationDistributor", dist.address, { client: { wallet: w } });
  const balance = (a: Address) => pm.read.balanceOf([a]);
  return { admin, signer, holder, relayer, stranger, pc, pm, dist, releaseId, voucher, sign, as, balance };
}

describe("ParticipationDistributor", () => {
  it("pays a voucher's amount beyond what the identity was paid, to its recipient, whoever submits it", async () => {
    const { holder, relayer, dist, releaseId, voucher, sign, as, balance } = await setUp();
    expect(await dist.read.releaseId()).to.equal(releaseId);
    const first = voucher();
    await logGas("claim (an identity's first payment)", await (await as(relayer)).write.claim([first, await sign(first)]));
    expect(await balance(holder.account.address)).to.equal(10_000_000n);
    expect(await balance(relayer.account.address)).to.equal(0n);
    const [ev] = await dist.getEvents.Distributed();
    expect(ev.args).to.deep.include({ intentId: first.intentId, identity: first.identity, amount: 10_000_000n, cumulativeAmount: 10_000_000n });
    expect((ev.args.recipient as string).toLowerCase()).to.equal(holder.account.address.toLowerCase());

    // A later voucher for the same identity pays only the difference.
    const second = voucher({ cumulativeAmount: 25_000_000n, intentId: intentKey("intent-2") });
    await (await as(holder)).write.claim([second, await sign(second)]);
    expect(await balance(holder.account.address)).to.equal(25_000_000n);
    expect(await dist.read.paidTo([first.identity])).to.equal(25_000_000n);
    expect(await balance(dist.address)).to.equal(POOL - 25_000_000n);
  });

  it("refuses a replayed intent, a voucher owing nothing, an expired one and a signature not by the signer", async () => {
    const { holder, stranger, dist, voucher, sign, as, balance } = await setUp();
    const v = voucher();
    const sig = await sign(v);
    await (await as(holder)).write.claim([v, sig]);
    await expectRevert((await as(holder)).write.claim([v, sig]), abi, "ParticipationIntentAlreadyPaid");
    const same = voucher({ intentId: intentKey("intent-again") });
    await expectRevert((await as(holder)).write.claim([same, await sign(same)]), abi, "ParticipationNothingToPay");
    const expired = voucher({ intentId: intentKey("old"), cumulativeAmount: 20_000_000n, expiresAt: 1n });
    await expectRevert((await as(holder)).write.claim([expired, await sign(expired)]), abi, "ParticipationVoucherExpired");
    const forged = voucher({ intentId: intentKey("forged"), cumulativeAmount: 20_000_000n });
    await expectRevert((await as(holder)).write.claim([forged, await sign(forged, stranger)]), abi, "ParticipationVoucherSignerInvalid");
    // A signed voucher whose recipient was changed no longer recovers to the signer.
    const genuine = voucher({ intentId: intentKey("genuine"), cumulativeAmount: 20_000_000n });
    const genuineSig = await sign(genuine);
    await expectRevert(
      (await as(stranger)).write.claim([{ ...genuine, recipient: stranger.account.address }, genuineSig]),
      abi,
      "ParticipationVoucherSignerInvalid",
    );
    expect(await balance(stranger.account.address)).to.equal(0n);
    expect(await dist.read.paidTo([v.identity])).to.equal(10_000_000n);
  });

  it("refuses a zero token, admin or signer at deployment", async () => {
    const [admin] = await hre.viem.getWalletClients();
    const zero = "0x0000000000000000000000000000000000000000";
    const pm = await hre.viem.deployContract("PlayMoney", [admin.account.address]);
    await expectRevert(
      hre.viem.deployContract("ParticipationDistributor", [pm.address, participationReleaseId(1), admin.account.address, zero]),
      abi,
      "ParticipationZeroAddress",
    );
  });

  it("pauses and resumes payments by the pauser only", async () => {
    const { admin, holder, dist, voucher, sign, as, balance } = await setUp();
    // The ABI carries the inherited AccessControl and Pausable errors.
    await expectRevert((await as(holder)).write.pause(), abi, "AccessControlUnauthorizedAccount");
    await logGas("pause", await (await as(admin)).write.pause());
    const v = voucher();
    const sig: Hex = await sign(v);
    await expectRevert((await as(holder)).write.claim([v, sig]), abi, "EnforcedPause");
    await logGas("unpause", await (await as(admin)).write.unpause());
    await (await as(holder)).write.claim([v, sig]);
    expect(await balance(holder.account.address)).to.equal(10_000_000n);
    expect(await dist.read.paused()).to.equal(false);
  });
});
