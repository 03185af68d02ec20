import { expect } from "chai";
import hre from "hardhat";
import { encodeFunctionData, encodePacked, keccak256, toHex, type Hex } from "viem";

const ZERO = `0x${"0".repeat(64)}` as Hex;

/**
 * Gas of the ledger's entry points, printed as one JSON line per figure (docs/contracts.md quotes them).
 * Assertions are loose upper bounds so a regression that multiplies the cost fails the test.
 */
describe("CommittedLedger gas", () => {
  it("measures commitJournalBatch (10 kB payload), commitBatch and verifyBalance (20-level proof)", async () => {
    const [owner, operator, treasury, maker, taker] = await hre.viem.getWalletClients();
    const ledger = await hre.viem.deployContract("CommittedLedger", [owner.account.address, operator.account.address, treasury.account.address]);
    const asOperator = await hre.viem.getContractAt("CommittedLedger", ledger.address, { client: { wallet: operator } });
    const pc = await hre.viem.getPublicClient();

    let x = 7n;
    const payload = toHex(Uint8Array.from({ length: 10_000 }, () => Number((x = (x * 48271n) % 2147483647n) & 255n)));
    const root1 = keccak256("0x01");
    const h1 = await asOperator.write.commitJournalBatch([1n, ZERO, root1, ZERO, keccak256(payload), payload]);
    const journalGas = (await pc.waitForTransactionReceipt({ hash: h1 })).gasUsed;

    const root2 = keccak256("0x02");
    const match = { maker: maker.account.address, taker: taker.account.address, marketId: 1n, side: 0, kind: 0, shares: 10_000n, priceBps: 6_000, fee: 10n };
    const credit = { account: taker.account.address, id: 0n, delta: 1_000_000n, reason: 0 };
    const h2 = await asOperator.write.commitBatch([2n, root1, root2, [match], [credit], true]);
    const batchGas = (await pc.waitForTransactionReceipt({ hash: h2 })).gasUsed;

    // A 20-level proof: fold the leaf with 20 arbitrary siblings (sorted pairs) to get the root to commit.
    const account = taker.account.address;
    const leaf = keccak256(keccak256(encodePacked(["address", "uint256", "int256"], [account, 0n, 1_000_000n])));
    const proof = Array.from({ length: 20 }, (_, i) => keccak256(toHex(i + 100)));
    let node = leaf;
    for (const s of proof) node = BigInt(node) < BigInt(s) ? keccak256(`0x${node.slice(2)}${s.slice(2)}`) : keccak256(`0x${s.slice(2)}${node.slice(2)}`);
    await asOperator.write.commitJournalBatch([3n, root2, node, await ledger.read.journalCommitment(), keccak256("0x00"), "0x00"]);
    expect(await ledger.read.verifyBalance([account, 0n, 1_000_000n, proof])).to.equal(true);
    const verifyGas = await pc.estimateGas({
      to: ledger.address,
      data: encodeFunctionData({ abi: ledger.abi, functionName: "verifyBalance", args: [account, 0n, 1_000_000n, proof] }),
    });

    for (const [entry, gas] of [
      ["commitJournalBatch(10kB payload)", journalGas],
      ["commitBatch(1 match, 1 credit, events)", batchGas],
      ["verifyBalance(20-level proof)", verifyGas],
    ] as const) {
      console.log(JSON.stringify({ contract: "CommittedLedger", entry, gas: Number(gas) }));
    }
    expect(Number(journalGas)).to.be.lessThan(600_000);
    expect(Number(verifyGas)).to.be.lessThan(100_000);
  });
});
