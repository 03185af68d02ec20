/**
 * `pm-agent create-market` on the on-chain lane, against the service and a real chain with `deployAll`'s contracts
 * (docs/cli.md): `--print` prepares and prints the two transactions without sending; a run sends them from the agent's
 * own wallet and lists the market its factory created; a run cut short after sending is finished by `--resume` with
 * the printed hash, and resuming again lists no second market; a resumed run without the hash prints the
 * transactions rather than send them twice; a wallet that is not the agent's is refused by the service's receipt check.
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Address, getAddress, parseEther } from "viem";
import { testUSDCAbi } from "../../generated/abis";
import { DEV_DEPLOYER_KEY } from "../../relayer/dev-accounts";
import type { Json } from "../../test/support/service";
import { type ReleaseStack, startReleaseStack } from "../../test/support/release-stack";
import { chainWallet } from "./chain";
import { runAgentCli } from "./main";

const USDC = 1_000_000n;

describe("pm-agent create-market on the on-chain lane", () => {
  let x: ReleaseStack;
  let usdc: Address;
  const home = mkdtempSync(join(tmpdir(), "pm-agent-onchain-"));
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { PM_AGENT_HOME: home, PM_AGENT_KEY: x.agents.maker!.apiKey, PM_AGENT_RPC: x.rpcUrl, PM_AGENT_WALLET_KEY: x.agents.maker!.walletPrivateKey! };
    const code = await runAgentCli(["--url", x.t.svc.baseUrl, ...argv], { out: (s) => out.push(s), err: (s) => err.push(s), env });
    return { code, out: out.join("\n"), err: err.join("\n") };
  };
  const create = (externalId: string, ...extra: string[]) =>
    cli(
      "create-market",
      "--title",
      `Will the on-chain creation ${externalId} list its market?`,
      "--collateral",
      "USDC",
      "--close",
      "7d",
      "--seed",
      "200",
      "--source-note",
      "the test",
      "--external-id",
      externalId,
      ...extra,
    );
  const mine = async () =>
    ((await x.call.maker!("GET", `/discover/markets?creator=${x.agents.maker!.ledgerAccount}&pageSize=100`)).json.markets as Json[]).length;
  const usdcOf = (who: string) => x.client().readContract({ address: usdc, abi: testUSDCAbi, functionName: "balanceOf", args: [getAddress(who)] });

  before(async () => {
    x = await startReleaseStack(["maker"]);
    usdc =
      ((x.ok(await x.call.maker!("GET", "/markets/config")).collaterals as Json[]).find((c) => c.symbol === "USDC")!.token as Address) ??
      assert.fail("no USDC");
    // Gas and test USDC (its mint is open) for the agent's own wallet, which must send the creation.
    const wallet = getAddress(x.agents.maker!.walletAddress);
    await x.client().waitForTransactionReceipt({ hash: await x.deployer().sendTransaction({ to: wallet, value: parseEther("1") }) });
    const mint = await x.deployer().writeContract({ address: usdc, abi: testUSDCAbi, functionName: "mint", args: [wallet, 10_000n * USDC] });
    await x.client().waitForTransactionReceipt({ hash: mint });
  });
  after(async () => {
    await x?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it("--print prepares the approve and the factory's createMarket without sending them", async () => {
    const before = await usdcOf(x.agents.maker!.walletAddress);
    const r = await create("printed", "--print");
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Send from the agent's wallet, in order, on chain \d+:/);
    assert.match(r.out, /\n {2}1\. .*: to 0x[0-9a-f]{40}, value 0, data 0x[0-9a-f]+\n {2}2\. /);
    assert.match(r.out, /then: pm-agent create-market --resume \S+ --tx-hash <the last one's hash>/);
    assert.equal(await usdcOf(x.agents.maker!.walletAddress), before, "nothing was sent");
  });

  it("sends both from the agent's wallet and lists the market the factory created, its seed paid in USDC", async () => {
    const before = await usdcOf(x.agents.maker!.walletAddress);
    const count = await mine();
    const r = await create("sent");
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /sent 0x[0-9a-f]{64}: .*\nsent 0x[0-9a-f]{64}: /);
    const address = /^listed (0x[0-9a-f]{40}) \(market \d+, LMSR, onchain lane, USDC\), open: Yes \/ No$/m.exec(r.out)?.[1];
    assert.ok(address, r.out);
    assert.match(r.out, /and 200 USDC seed/);
    assert.match(r.out, /created by 0x[0-9a-f]{64}/);
    assert.equal(before - (await usdcOf(x.agents.maker!.walletAddress)), 200n * USDC, "the seed left the agent's wallet on chain");
    assert.equal((await x.call.maker!("GET", `/discover/markets/${address}`)).json.settlement, "onchain");
    assert.equal(await mine(), count + 1);
  });

  it("a run cut short after sending is finished by --resume with the hash; resumed without it, it only prints", async () => {
    const r = await create("cut-short", "--print");
    const id = /--resume (\S+) --tx-hash/.exec(r.out)![1]!;
    const prepared = JSON.parse((await cli("--json", "create-market", "--resume", id)).out);
    assert.equal(prepared.transactions.length, 2, "resumed without --tx-hash: the transactions printed, not sent again");
    // What the cut-short run had sent: both transactions, from the agent's wallet.
    const wallet = chainWallet(x.agents.maker!.walletPrivateKey!, x.chainId, x.rpcUrl, "test");
    let hash = "";
    for (const tx of prepared.transactions as { to: string; data: string }[]) hash = await wallet.send(tx);
    const count = await mine();
    const first = await cli("--json", "create-market", "--resume", id, "--tx-hash", hash);
    assert.equal(first.code, 0, first.err);
    const again = await cli("--json", "create-market", "--resume", id, "--tx-hash", hash);
    assert.equal(again.code, 0, again.err);
    assert.equal(JSON.parse(again.out).market.address, JSON.parse(first.out).market.address);
    assert.equal(JSON.parse(first.out).txHash, hash);
    assert.equal(await mine(), count + 1, "one market, however often it is resumed");
  });

  it("a wallet that is not the agent's sends, and the service refuses the receipt (exit 1), listing nothing", async () => {
    const count = await mine();
    const deployer = x.deployer();
    const mint = await deployer.writeContract({ address: usdc, abi: testUSDCAbi, functionName: "mint", args: [deployer.account.address, 1_000n * USDC] });
    await x.client().waitForTransactionReceipt({ hash: mint });
    const r = await create("stranger", "--wallet-key", DEV_DEPLOYER_KEY);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /409 DEPLOY_RECEIPT_MISMATCH \(creator\)/);
    assert.equal(await mine(), count);
  });
});
