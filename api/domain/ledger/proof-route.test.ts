import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createPublicClient, http, type Address, type Hex } from "viem";
import { committedLedgerAbi } from "../../../generated/abis";
import { runLedgerDemo } from "../../../test/support/ledger-demo";
import { startLocalChain } from "../../../scripts/stack/chain";
import { stopChild, type Child } from "../../../scripts/stack/children";
import { freePort } from "../../../test/support/ports";
import type { RunningService } from "../../service";
import { systemClock, type Clock } from "../../../relayer/clock";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { PublishedLedger } from "./published-ledger";
import { replayLedger } from "../../../decoder/replay/replay";

describe("GET /api/v1/ledger/proof/{account}", () => {
  let chain: Child;
  let svc: RunningService;
  let rpc: string;
  let ledger: Address;
  let published: PublishedLedger;
  let t: TestService<Clock> | undefined;

  before(async () => {
    const port = await freePort();
    rpc = `http://127.0.0.1:${port}`;
    chain = await startLocalChain({ port, chainId: 8453 });
    ({ ledger } = await runLedgerDemo({ rpc, batches: 3, seed: 7, legacy: true }));
    published = new PublishedLedger(rpc, ledger, 8453);
    t = await startTestService({ RPC_URL: rpc }, { clock: systemClock, publishedLedger: published });
    svc = t.svc;
  });
  after(async () => {
    if (t) await stopTestService(t);
    if (chain) await stopChild(chain);
  });

  it("answers every balance of an account with proofs that verifyBalance accepts against ledgerRoot()", async () => {
    const client = createPublicClient({ transport: http(rpc) });
    const { state } = await replayLedger({ client, ledger });
    const account = state.entries()[0].account as Address;
    const res = await fetch(`${svc.baseUrl.replace("/api/agent/v1", "")}/api/v1/ledger/proof/${account}`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { root: Hex; batchNonce: string; leaves: { assetId: string; balance: string; proof: Hex[] }[] };
    assert.equal(body.root, await client.readContract({ address: ledger, abi: committedLedgerAbi, functionName: "ledgerRoot" }));
    assert.equal(body.batchNonce, "3");
    assert.equal(body.leaves.length, state.accountEntries(account.toLowerCase() as Address).length);
    assert.ok(body.leaves.length > 0);
    for (const l of body.leaves) {
      const ok = await client.readContract({
        address: ledger,
        abi: committedLedgerAbi,
        functionName: "verifyBalance",
        args: [account, BigInt(l.assetId), BigInt(l.balance), l.proof],
      });
      assert.equal(ok, true, `asset ${l.assetId}`);
      const wrong = await client.readContract({
        address: ledger,
        abi: committedLedgerAbi,
        functionName: "verifyBalance",
        args: [account, BigInt(l.assetId), BigInt(l.balance) + 1n, l.proof],
      });
      assert.equal(wrong, false);
    }
  });

  it("answers an empty list for an account without balances, and a problem for a bad address", async () => {
    const origin = svc.baseUrl.replace("/api/agent/v1", "");
    const empty = await fetch(`${origin}/api/v1/ledger/proof/0x000000000000000000000000000000000000dEaD`);
    assert.equal(empty.status, 200);
    assert.deepEqual(((await empty.json()) as { leaves: unknown[] }).leaves, []);
    const bad = await fetch(`${origin}/api/v1/ledger/proof/not-an-address`);
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get("content-type"), "application/problem+json");
    assert.equal(((await bad.json()) as { code: string }).code, "INVALID_PAYLOAD");
  });

  it("keeps up with new batches incrementally: only the blocks after the last replay are read, and proofs still verify", async () => {
    const client = createPublicClient({ transport: http(rpc) });
    const origin = svc.baseUrl.replace("/api/agent/v1", "");
    const proofOf = async (account: Address) =>
      (await (await fetch(`${origin}/api/v1/ledger/proof/${account}`)).json()) as {
        root: Hex;
        batchNonce: string;
        leaves: { assetId: string; balance: string; proof: Hex[] }[];
      };
    const first = (await replayLedger({ client, ledger })).state.entries()[0].account as Address;
    await proofOf(first); // the state is kept from here
    const before = { ...published.stats };
    await runLedgerDemo({ rpc, ledger, batches: 2, seed: 11 });
    const { state } = await replayLedger({ client, ledger });
    const account = state.entries().at(-1)!.account as Address;
    const body = await proofOf(account);
    assert.equal(body.batchNonce, "5");
    assert.equal(body.root, await client.readContract({ address: ledger, abi: committedLedgerAbi, functionName: "ledgerRoot" }));
    assert.deepEqual(published.stats, { fullReplays: before.fullReplays, incrementalReplays: before.incrementalReplays + 1 });
    assert.equal(body.leaves.length, state.accountEntries(account.toLowerCase() as Address).length);
    for (const l of body.leaves) {
      const ok = await client.readContract({
        address: ledger,
        abi: committedLedgerAbi,
        functionName: "verifyBalance",
        args: [account, BigInt(l.assetId), BigInt(l.balance), l.proof],
      });
      assert.equal(ok, true, `asset ${l.assetId}`);
    }
    // Nothing new on chain: no replay at all.
    await proofOf(account);
    assert.deepEqual(published.stats, { fullReplays: before.fullReplays, incrementalReplays: before.incrementalReplays + 1 });
  });
});
