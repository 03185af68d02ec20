/**
 * `pm-agent release` against the service and a real chain (docs/cli.md, docs/participation-release.md): status, a
 * claim prepared, sent by another wallet (the PM reaching the agent's) and finalized, `show` once it is final, the
 * cadence refusal as exit code 1 with the service's code, and a claim the service sends itself (protocol_push).
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { getAddress, parseEther } from "viem";
import { DEV_DEPLOYER_KEY } from "../../relayer/dev-accounts";
import { DAY_MS, UNIT_WEI } from "../../api/domain/release/program";
import { type ReleaseStack, startReleaseStack } from "../../test/support/release-stack";
import { runAgentCli } from "./main";

describe("pm-agent release", () => {
  let x: ReleaseStack;
  const home = mkdtempSync(join(tmpdir(), "pm-agent-release-"));
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAgentCli(["--url", x.t.svc.baseUrl, ...argv], { out: (s) => out.push(s), err: (s) => err.push(s), env: { PM_AGENT_HOME: home } });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };

  before(async () => {
    x = await startReleaseStack(["root", "solo"], { PARTICIPATION_CONFIRMATIONS: "2", PARTICIPATION_DELIVERY: "auto" });
    for (const who of ["root", "solo"]) {
      await x.linkAndVerify(who, []);
      await x.trade(who);
    }
    x.t.clock.advance(DAY_MS);
    // root's wallet holds gas, so its claim is its own to send (self_claim); solo's holds none (protocol_push).
    const fund = await x.deployer().sendTransaction({ to: getAddress(x.agents.root!.walletAddress), value: parseEther("1") });
    await x.client().waitForTransactionReceipt({ hash: fund });
  });
  after(async () => {
    await x?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it("claims what was banked: prepare, send from another wallet, finalize, then show it paid", async () => {
    assert.equal((await cli("login", "--key", x.agents.root!.apiKey)).code, 0);
    const status = await cli("--json", "release", "status");
    assert.equal(status.code, 0, status.err);
    const s = JSON.parse(status.out);
    assert.deepEqual([s.claim.ready, s.amounts.bankedWei, s.member.role], [true, UNIT_WEI.toString(), "root"]);
    assert.match((await cli("release", "status")).out, /banked 10 PM, paid 0 PM/);

    const before = await x.pmOnChain(x.agents.root!.walletAddress);
    const claim = await cli("release", "claim", "--rpc", x.rpcUrl, "--sender-key", DEV_DEPLOYER_KEY);
    assert.equal(claim.code, 0, claim.err);
    assert.match(claim.out, /sent 0x[0-9a-f]{64} from 0x/i);
    assert.match(claim.out, /projection_pending \(PARTICIPATION_DISTRIBUTION_FINALITY_PENDING\), 10 PM to 0x[0-9a-f]{40} \(self\)/);
    assert.equal(await x.pmOnChain(x.agents.root!.walletAddress), before + UNIT_WEI, "the PM reached the agent's wallet, not the sender's");
    await x.mine();
    const intentId = /claim (pri_[0-9a-f-]+)/.exec(claim.out)?.[1];
    assert.ok(intentId, claim.out);
    assert.match((await cli("release", "show", intentId)).out, new RegExp(`claim ${intentId}: paid, 10 PM`));

    const again = await cli("release", "claim", "--print");
    assert.equal(again.code, 1);
    assert.match(again.err, /409 PARTICIPATION_CLAIM_CADENCE_ACTIVE/);
  });

  it("says so when the service sends the claim itself (a wallet without gas), and shows it paid", async () => {
    assert.equal((await cli("--profile", "solo", "login", "--key", x.agents.solo!.apiKey)).code, 0);
    const claim = await cli("--profile", "solo", "release", "claim", "--rpc", x.rpcUrl);
    assert.equal(claim.code, 0, claim.err);
    assert.match(claim.out, /the service sends this claim \(protocol_push\)/);
    await x.mine();
    const intentId = /claim (pri_[0-9a-f-]+)/.exec(claim.out)?.[1];
    assert.ok(intentId, claim.out);
    assert.match((await cli("--profile", "solo", "release", "show", intentId)).out, new RegExp(`claim ${intentId}: paid, 10 PM`));
    assert.equal(await x.pmOnChain(x.agents.solo!.walletAddress), UNIT_WEI);
  });
});
