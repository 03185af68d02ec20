/**
 * pm-agent's release commands: PM's participation release (docs/participation-release.md). `claim` does the whole
 * flow: prepare the voucher, send its transaction from this profile's wallet (or `--sender-key`), finalize from the
 * receipt. Without a key to send with, or with `--print`, it prints the transaction and the command that finalizes it.
 */
import { unitsText } from "../../../api/transports/site/format";
import { PM_DECIMALS } from "../../../relayer/lifecycle/rules";
import { chainWallet, DEFAULT_RPC, rpcOf } from "../chain";
import type { CliContext, Json } from "../context";

const pm = (wei: string) => `${unitsText(wei, PM_DECIMALS)} PM`;

/** One line for a claim: status, amount, recipient, transaction. */
function distributionLine(d: Json): string {
  if (d.status === "none") return "no claim yet";
  const tx = d.transactionHash ? ` tx ${d.transactionHash}` : "";
  const why = d.reasonCode ? ` (${d.reasonCode})` : "";
  return `claim ${d.intentId}: ${d.status}${why}, ${pm(d.amountWei)} to ${d.recipient} (${d.recipientRelation})${tx}`;
}

export function addReleaseCommands({ program, client, show, stored, io, write }: CliContext): void {
  const release = program
    .command("release")
    .description("PM's participation release: 10 PM per day of trading, claimed on chain (docs/participation-release.md)");
  release
    .command("status")
    .description("this agent's lane: deployment, membership, banked and paid PM, whether a claim is possible now")
    .action(async () => {
      const { json } = await client().call<Json>("GET", "/participation-release");
      show(json, () => [
        `release ${json.profile.releaseId ?? "(not deployed)"} on chain ${json.deployment.chainId}: ${json.deployment.state}${json.deployment.reasonCode ? ` (${json.deployment.reasonCode})` : ""}`,
        `member: ${json.member.status}${json.member.role ? ` (${json.member.role})` : ""}; lane: ${json.lane.state}${json.lane.nextCreditAt ? `, next unit at ${json.lane.nextCreditAt}` : ""}`,
        `banked ${pm(json.amounts.bankedWei)}, paid ${pm(json.amounts.confirmedPaidWei)}; the pool has ${pm(json.amounts.communityRemainingWei)} left`,
        json.claim.ready
          ? "a claim is possible now: pm-agent release claim"
          : `no claim now: ${json.claim.reasonCode}${json.claim.notBefore ? ` until ${json.claim.notBefore}` : ""}`,
        distributionLine(json.distribution),
      ]);
    });
  release
    .command("claim")
    .description("claim what was banked: prepare, send the transaction, finalize")
    .option("--rpc <url>", `the chain's JSON-RPC (default PM_AGENT_RPC, else ${DEFAULT_RPC})`)
    .option(
      "--sender-key <hex>",
      "the wallet that sends and pays the gas (default PM_AGENT_SENDER_KEY, else this profile's wallet); the PM goes to this agent's wallet",
    )
    .option("--print", "prepare only, and print the transaction to send")
    .action(async (o: { rpc?: string; senderKey?: string; print?: boolean }) => {
      const api = client();
      const state = (await api.call<Json>("GET", "/participation-release")).json;
      const expected = { expectedProfileId: state.profile.profileId, expectedReleaseId: state.profile.releaseId ?? `0x${"0".repeat(64)}` };
      const prepared = (await api.call<Json>("POST", "/participation-release/claim/prepare", expected)).json;
      const { intent, transaction } = prepared;
      if (!transaction) {
        // protocol_push: the service sent it (this agent's wallet holds no gas).
        const read = (await api.call<Json>("GET", `/participation-release/distributions/${encodeURIComponent(intent.id)}`)).json;
        return show(read, () => [`the service sends this claim (${intent.deliveryMode})`, distributionLine(read.distribution)]);
      }
      const senderKey = o.senderKey ?? io.env.PM_AGENT_SENDER_KEY ?? stored()?.walletPrivateKey;
      if (o.print || !senderKey) {
        return show(prepared, () => [
          `claim ${intent.id}: ${pm(intent.amountWei)} to ${intent.recipient}, until ${intent.expiresAt}`,
          `send on chain ${transaction.chainId}: to ${transaction.to}, value 0, data ${transaction.data}`,
          `then: pm-agent release finalize ${intent.id} <transactionHash>`,
        ]);
      }
      const wallet = chainWallet(senderKey, transaction.chainId, rpcOf(o.rpc, io.env), "--sender-key");
      const hash = await wallet.send(transaction, (sent) => write(`sent ${sent} from ${wallet.address}`));
      const done = (await api.call<Json>("POST", "/participation-release/claim/finalize", { ...expected, intentId: intent.id, transactionHash: hash })).json;
      show(done, () => distributionLine(done.distribution));
    });
  release
    .command("finalize <intentId> <transactionHash>")
    .description("report the transaction that sent a claim's voucher")
    .action(async (intentId: string, transactionHash: string) => {
      const api = client();
      const state = (await api.call<Json>("GET", "/participation-release")).json;
      const body = {
        expectedProfileId: state.profile.profileId,
        expectedReleaseId: state.profile.releaseId,
        intentId,
        transactionHash: transactionHash.toLowerCase(),
      };
      const { json } = await api.call<Json>("POST", "/participation-release/claim/finalize", body);
      show(json, () => distributionLine(json.distribution));
    });
  release
    .command("show <intentId>")
    .description("a claim of this agent's identity, as the chain has it now")
    .action(async (intentId: string) => {
      const { json } = await client().call<Json>("GET", `/participation-release/distributions/${encodeURIComponent(intentId)}`);
      show(json, () => [
        distributionLine(json.distribution),
        ...(json.transaction ? [`still to send: to ${json.transaction.to}, data ${json.transaction.data}`] : []),
      ]);
    });
}
