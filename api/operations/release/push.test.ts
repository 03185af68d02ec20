/**
 * A participation claim delivered by the service (docs/participation-release.md, PARTICIPATION_DELIVERY `auto`): a
 * member whose wallet holds no gas gets `protocol_push`, no transaction to send, and its claim sent with the operator
 * key and paid; a member whose wallet holds gas gets `self_claim` and the transaction.
 */
import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { getAddress, type Hex, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DAY_MS, UNIT_WEI } from "../../domain/release/program";
import { type ReleaseStack, startReleaseStack } from "../../../test/support/release-stack";

describe("participation release: protocol_push", () => {
  let x: ReleaseStack;
  let expected: { expectedProfileId: string; expectedReleaseId: string };

  before(async () => {
    x = await startReleaseStack(["root", "funded"], { PARTICIPATION_DELIVERY: "auto" });
    for (const root of ["root", "funded"]) {
      await x.linkAndVerify(root, []);
      await x.trade(root);
    }
    x.t.clock.advance(DAY_MS);
    const s = x.ok(await x.call.root!("GET", "/participation-release"));
    expected = { expectedProfileId: s.profile.profileId, expectedReleaseId: s.profile.releaseId };
  });
  after(async () => x?.stop());

  it("sends the claim of a wallet without gas with the operator key, and it is paid", async () => {
    const wallet = x.agents.root!.walletAddress;
    assert.equal(await x.client().getBalance({ address: getAddress(wallet) }), 0n);
    const prepared = x.ok(await x.call.root!("POST", "/participation-release/claim/prepare", expected));
    assert.deepEqual([prepared.intent.deliveryMode, prepared.intent.status, prepared.transaction], ["protocol_push", "submitted", null]);
    const read = x.ok(await x.call.root!("GET", `/participation-release/distributions/${prepared.intent.id}`));
    assert.deepEqual([read.distribution.status, read.distribution.deliveryMode, read.distribution.amountWei], ["paid", "protocol_push", UNIT_WEI.toString()]);
    const tx = await x.client().getTransaction({ hash: read.distribution.transactionHash });
    assert.equal(getAddress(tx.from), privateKeyToAccount(x.t.svc.ctx.config.OPERATOR_PRIVATE_KEY as Hex).address, "the operator sent it");
    assert.equal(await x.pmOnChain(wallet), UNIT_WEI, "and the PM reached the member's wallet");
    assert.equal(await x.client().getBalance({ address: getAddress(wallet) }), 0n, "which paid no gas");
  });

  it("gives a wallet that holds gas its transaction to send (self_claim)", async () => {
    const wallet = getAddress(x.agents.funded!.walletAddress);
    const fund = await x.deployer().sendTransaction({ to: wallet, value: parseEther("1") });
    await x.client().waitForTransactionReceipt({ hash: fund });
    const prepared = x.ok(await x.call.funded!("POST", "/participation-release/claim/prepare", expected));
    assert.deepEqual([prepared.intent.deliveryMode, prepared.intent.status], ["self_claim", "prepared"]);
    assert.equal(prepared.transaction.to, x.distributor.toLowerCase());
  });
});
