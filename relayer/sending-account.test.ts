import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { createPublicClient, createWalletClient, http, type Hex, type PrivateKeyAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { freePort } from "../test/support/ports";
import { OPERATOR_KEY, startChain, TREASURY } from "../scripts/stack/chain";
import { rpcChain } from "./rpc-chain";
import { sendingAccount, type SendingAccount } from "./sending-account";

/**
 * Three parts of one process (the batcher and the trade relay, say) send from the same key at the same time, each with
 * its own wallet client, as the service does. Each part serialises its own sends; only the shared queue serialises
 * the parts.
 */
describe("sendingAccount: concurrent senders of one key", () => {
  let chain: Awaited<ReturnType<typeof startChain>>;
  before(async () => {
    chain = await startChain(await freePort());
  });
  after(() => chain?.stop());

  /** Each part has its own account object and wallet client, and sends one transaction at a time. */
  const sendFromThreeParts = async (sender: () => Pick<SendingAccount, "account" | "inTurn">) => {
    const rpc = rpcChain(31337, chain.rpcUrl);
    const transport = http(chain.rpcUrl);
    const client = createPublicClient({ chain: rpc, transport });
    const part = async (n: number) => {
      const { account, inTurn } = sender();
      const wallet = createWalletClient({ chain: rpc, transport, account });
      const hashes: Hex[] = [];
      for (let i = 0; i < n; i++) hashes.push(await inTurn(() => wallet.sendTransaction({ to: TREASURY, value: 1n })));
      return hashes;
    };
    const results = await Promise.allSettled([part(5), part(5), part(5)]);
    const sent = results.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
    const receipts = await Promise.all(sent.map((hash) => client.waitForTransactionReceipt({ hash })));
    return { results, receipts };
  };

  it("gives every send its own nonce, so none fails", async () => {
    const { results, receipts } = await sendFromThreeParts(() => sendingAccount(OPERATOR_KEY));
    for (const r of results) assert.equal(r.status, "fulfilled", r.status === "rejected" ? String((r.reason as Error).message) : "");
    assert.equal(receipts.length, 15);
    assert.ok(receipts.every((r) => r.status === "success"));
  });

  it("sends again a send refused for its nonce when another process took it (a second instance with the key)", async () => {
    const rpc = rpcChain(31337, chain.rpcUrl);
    const transport = http(chain.rpcUrl);
    const client = createPublicClient({ chain: rpc, transport });
    const ours = sendingAccount(OPERATOR_KEY);
    const ourWallet = createWalletClient({ chain: rpc, transport, account: ours.account });
    const theirWallet = createWalletClient({ chain: rpc, transport, account: privateKeyToAccount(OPERATOR_KEY) });
    let runs = 0;
    const send = () => {
      runs++;
      return ourWallet.sendTransaction({ to: TREASURY, value: 1n });
    };
    const mine = async () => {
      const hashes: Hex[] = [];
      for (let i = 0; i < 8; i++) hashes.push(await ours.inTurn(send));
      return hashes;
    };
    const theirs = async () => {
      const outcomes: boolean[] = [];
      for (let i = 0; i < 8; i++)
        outcomes.push(
          await theirWallet.sendTransaction({ to: TREASURY, value: 2n }).then(
            () => true,
            () => false,
          ),
        );
      return outcomes;
    };
    const [hashes, their] = await Promise.all([mine(), theirs()]);
    const receipts = await Promise.all(hashes.map((hash) => client.waitForTransactionReceipt({ hash })));
    assert.ok(
      receipts.every((r) => r.status === "success"),
      "every one of our sends landed",
    );
    // The race happened: either one of ours was refused and run again, or the other process lost one.
    assert.ok(runs > 8 || their.includes(false), `no nonce collision in ${runs} runs of ours: the test raced nothing`);
  });

  it("(control) plain accounts of the same key collide on their nonces", async () => {
    const own = (account: PrivateKeyAccount) => ({ account, inTurn: <T>(send: () => Promise<T>) => send() });
    const { results } = await sendFromThreeParts(() => own(privateKeyToAccount(OPERATOR_KEY)));
    const failed = results.filter((r) => r.status === "rejected");
    assert.ok(failed.length > 0, "without the shared queue, concurrent parts read the same pending nonce");
    assert.match(String((failed[0] as PromiseRejectedResult).reason.message), /nonce/i);
  });
});
