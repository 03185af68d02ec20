import { expect } from "chai";
import hre from "hardhat";
import { keccak256, toHex, type Abi, type Hex } from "viem";
import { outcomeTokenAbi, playMoneyAbi, testUSDCAbi } from "../../../generated/abis";
import { expectRevert } from "../../support/revert";

const ozErrors = [
  {
    type: "error",
    name: "AccessControlUnauthorizedAccount",
    inputs: [
      { name: "account", type: "address" },
      { name: "neededRole", type: "bytes32" },
    ],
  },
] as const;

async function logGas(contract: string, entry: string, hash: Hex) {
  const pc = await hre.viem.getPublicClient();
  console.log(JSON.stringify({ contract, entry, gas: Number((await pc.waitForTransactionReceipt({ hash })).gasUsed) }));
}

describe("PlayMoney", () => {
  it("has 6 decimals and mints only through MINTER_ROLE", async () => {
    const [admin, minter, someone] = await hre.viem.getWalletClients();
    const pm = await hre.viem.deployContract("PlayMoney", [admin.account.address]);
    expect(await pm.read.decimals()).to.equal(6);
    const asMinter = await hre.viem.getContractAt("PlayMoney", pm.address, { client: { wallet: minter } });
    await expectRevert(
      asMinter.write.mint([someone.account.address, 1n]),
      [...(playMoneyAbi as unknown as Abi), ...ozErrors] as Abi,
      "AccessControlUnauthorizedAccount",
    );
    await pm.write.grantRole([await pm.read.MINTER_ROLE(), minter.account.address]);
    await logGas("PlayMoney", "mint(first credit of an account)", await asMinter.write.mint([someone.account.address, 5_000_000n]));
    expect(await pm.read.balanceOf([someone.account.address])).to.equal(5_000_000n);
    const names = (playMoneyAbi as unknown as { type: string; name?: string }[]).filter((x) => x.type === "function").map((x) => x.name);
    for (const forbidden of ["redeem", "withdraw", "burn"]) expect(names).to.not.include(forbidden);
  });
});

describe("OutcomeToken", () => {
  it("allocates market ids from 1 to registered factories and lets only the market mint and burn its ids", async () => {
    const [owner, factory, market, holder, other] = await hre.viem.getWalletClients();
    const token = await hre.viem.deployContract("OutcomeToken", [owner.account.address, ""]);
    const abi = outcomeTokenAbi as unknown as Abi;
    const as = (w: typeof owner) => hre.viem.getContractAt("OutcomeToken", token.address, { client: { wallet: w } });
    await expectRevert((await as(factory)).write.registerMarket([market.account.address, 2]), abi, "OutcomeTokenUnauthorizedFactory");
    const setFactoryHash = await token.write.setFactory([factory.account.address, true]);
    await expectRevert((await as(factory)).write.registerMarket([market.account.address, 1]), abi, "OutcomeTokenInvalidOutcomeCount");
    const registerHash = await (await as(factory)).write.registerMarket([market.account.address, 2]);
    const [reg] = await token.getEvents.MarketRegistered();
    expect(reg.args.marketId).to.equal(1n);
    expect(await token.read.tokenId([1n, 1n])).to.equal((1n << 8n) | 1n);
    await expectRevert((await as(other)).write.mint([holder.account.address, 1n, 0n, 10n]), abi, "OutcomeTokenUnauthorizedMarket");
    await expectRevert((await as(market)).write.mint([holder.account.address, 1n, 2n, 10n]), abi, "OutcomeTokenInvalidOutcome");
    const mintHash = await (await as(market)).write.mint([holder.account.address, 1n, 1n, 10n]);
    expect(await token.read.balanceOf([holder.account.address, 257n])).to.equal(10n);
    await expectRevert((await as(other)).write.burn([holder.account.address, 1n, 1n, 4n]), abi, "OutcomeTokenUnauthorizedMarket");
    await expectRevert((await as(holder)).write.burn([holder.account.address, 1n, 1n, 4n]), abi, "OutcomeTokenUnauthorizedMarket");
    expect(await token.read.balanceOf([holder.account.address, 257n])).to.equal(10n);
    const burnHash = await (await as(market)).write.burn([holder.account.address, 1n, 1n, 4n]);
    expect(await token.read.balanceOf([holder.account.address, 257n])).to.equal(6n);
    const approvalHash = await (await as(holder)).write.setApprovalForAll([other.account.address, true]);
    // mint and burn are called by an EOA registered as the market here; in production a market calls them inside buy/sell/redeem.
    for (const [entry, hash] of [
      ["setFactory", setFactoryHash],
      ["registerMarket", registerHash],
      ["mint(direct, by the registered market)", mintHash],
      ["burn(direct, by the registered market)", burnHash],
      ["setApprovalForAll", approvalHash],
    ] as const)
      await logGas("OutcomeToken", entry, hash);
  });
});

describe("TestUSDC (EIP-3009)", () => {
  it("moves funds with a signed authorization once, and refuses replays, expired windows and forged signatures", async () => {
    const [payer, payee, relayer] = await hre.viem.getWalletClients();
    const usdc = await hre.viem.deployContract("TestUSDC", []);
    const abi = testUSDCAbi as unknown as Abi;
    const client = await hre.viem.getPublicClient();
    await logGas("TestUSDC", "mint(first credit of an account)", await usdc.write.mint([payer.account.address, 10_000_000n]));
    const now = (await client.getBlock()).timestamp;
    const message = {
      from: payer.account.address,
      to: payee.account.address,
      value: 2_500_000n,
      validAfter: 0n,
      validBefore: now + 3600n,
      nonce: keccak256(toHex("n1")),
    };
    const domain = { name: "USD Coin", version: "2", chainId: await client.getChainId(), verifyingContract: usdc.address };
    const types = {
      TransferWithAuthorization: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    } as const;
    const signature = await payer.signTypedData({ domain, types, primaryType: "TransferWithAuthorization", message });
    const asRelayer = await hre.viem.getContractAt("TestUSDC", usdc.address, { client: { wallet: relayer } });
    const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature] as const;
    await logGas("TestUSDC", "transferWithAuthorization(new payee)", await asRelayer.write.transferWithAuthorization(args));
    expect(await usdc.read.balanceOf([payee.account.address])).to.equal(2_500_000n);
    expect(await usdc.read.authorizationState([payer.account.address, message.nonce])).to.equal(true);
    await expectRevert(asRelayer.write.transferWithAuthorization(args), abi, "TestUSDCAuthorizationUsed");
    const forged = await relayer.signTypedData({
      domain,
      types,
      primaryType: "TransferWithAuthorization",
      message: { ...message, nonce: keccak256(toHex("n2")) },
    });
    await expectRevert(
      asRelayer.write.transferWithAuthorization([message.from, message.to, message.value, 0n, message.validBefore, keccak256(toHex("n2")), forged]),
      abi,
      "TestUSDCInvalidSignature",
    );
    const expired = { ...message, validBefore: now - 1n, nonce: keccak256(toHex("n3")) };
    const sig3 = await payer.signTypedData({ domain, types, primaryType: "TransferWithAuthorization", message: expired });
    await expectRevert(
      asRelayer.write.transferWithAuthorization([expired.from, expired.to, expired.value, 0n, expired.validBefore, expired.nonce, sig3]),
      abi,
      "TestUSDCAuthorizationNotInWindow",
    );
    expect(await usdc.read.decimals()).to.equal(6);
  });

  it("receiveWithAuthorization is payee-only; cancelAuthorization burns an unused nonce", async () => {
    const [payer, payee, relayer] = await hre.viem.getWalletClients();
    const usdc = await hre.viem.deployContract("TestUSDC", []);
    const abi = testUSDCAbi as unknown as Abi;
    const client = await hre.viem.getPublicClient();
    await usdc.write.mint([payer.account.address, 10_000_000n]);
    await usdc.write.mint([payee.account.address, 1n]); // the payee already holds USDC: the common case
    const domain = { name: "USD Coin", version: "2", chainId: await client.getChainId(), verifyingContract: usdc.address };
    const validBefore = (await client.getBlock()).timestamp + 3600n;
    const message = { from: payer.account.address, to: payee.account.address, value: 1_000_000n, validAfter: 0n, validBefore, nonce: keccak256(toHex("r1")) };
    const types = {
      ReceiveWithAuthorization: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    } as const;
    const signature = await payer.signTypedData({ domain, types, primaryType: "ReceiveWithAuthorization", message });
    const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce, signature] as const;
    const asRelayer = await hre.viem.getContractAt("TestUSDC", usdc.address, { client: { wallet: relayer } });
    await expectRevert(asRelayer.write.receiveWithAuthorization(args), abi, "TestUSDCCallerNotPayee");
    const asPayee = await hre.viem.getContractAt("TestUSDC", usdc.address, { client: { wallet: payee } });
    await logGas("TestUSDC", "receiveWithAuthorization", await asPayee.write.receiveWithAuthorization(args));
    expect(await usdc.read.balanceOf([payee.account.address])).to.equal(1_000_001n);

    const nonce = keccak256(toHex("c1"));
    const cancelTypes = {
      CancelAuthorization: [
        { name: "authorizer", type: "address" },
        { name: "nonce", type: "bytes32" },
      ],
    } as const;
    const cancelSig = await payer.signTypedData({
      domain,
      types: cancelTypes,
      primaryType: "CancelAuthorization",
      message: { authorizer: payer.account.address, nonce },
    });
    await expectRevert(asRelayer.write.cancelAuthorization([payer.account.address, keccak256(toHex("c2")), cancelSig]), abi, "TestUSDCInvalidSignature");
    await logGas("TestUSDC", "cancelAuthorization", await asRelayer.write.cancelAuthorization([payer.account.address, nonce, cancelSig]));
    expect(await usdc.read.authorizationState([payer.account.address, nonce])).to.equal(true);
    await expectRevert(asRelayer.write.cancelAuthorization([payer.account.address, nonce, cancelSig]), abi, "TestUSDCAuthorizationUsed");
    const asPayer = await hre.viem.getContractAt("TestUSDC", usdc.address, { client: { wallet: payer } });
    await logGas("TestUSDC", "approve", await asPayer.write.approve([relayer.account.address, 5n]));
  });
});
