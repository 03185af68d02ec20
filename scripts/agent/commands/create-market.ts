/**
 * `pm-agent create-market`: the negotiate flow of docs/market-creation.md in one command (propose, accept,
 * prepare-deploy, commit-deploy), resumable by the negotiation's id. On the on-chain lane the two prepared transactions
 * are sent from the agent's own wallet (./chain.ts), or printed for it to send; a resumed run never sends them again.
 */
import { randomUUID } from "node:crypto";
import { type Command, Option } from "commander";
import { instantText, unitsText } from "../../../api/transports/site/format";
import { PM_DECIMALS } from "../../../relayer/lifecycle/rules";
import { chainWallet, DEFAULT_RPC, rpcOf } from "../chain";
import { type CliContext, failureLine, type Json, Refused, UsageError } from "../context";
import { instantOf, unitsOf } from "../units";

interface CreateOptions {
  title?: string;
  description?: string;
  category: string;
  outcomes: string;
  pricing: "lmsr" | "orderbook";
  collateral: string;
  close?: string;
  seed?: string;
  sourceNote?: string;
  polymarket?: string;
  externalId?: string;
  dryRun?: boolean;
  resume?: string;
  txHash?: string;
  print?: boolean;
  rpc?: string;
  walletKey?: string;
}

/** Options that deploy rather than say the terms: the only ones --resume takes. */
const DEPLOY_OPTIONS = new Set(["resume", "txHash", "print", "rpc", "walletKey"]);

export function addCreateMarketCommand(cx: CliContext): void {
  const { program, client, show, io } = cx;
  program
    .command("create-market")
    .description("create a market: its terms proposed, accepted and deployed in one go (on-chain: signed by the agent's wallet)")
    .option("--title <text>", "the question, 10..200 characters")
    .option("--description <text>", "how it resolves, in words")
    .option("--category <name>", "a market category (GET /discover/rules)", "OTHER")
    .option("--outcomes <labels>", "outcome labels, comma-separated", "Yes,No")
    .addOption(new Option("--pricing <model>", "LMSR market maker or order book").choices(["lmsr", "orderbook"]).default("lmsr"))
    .option("--collateral <symbol>", "PM (the committed lane) or a collateral of GET /markets/config such as USDC (the on-chain lane)", "PM")
    .option("--close <when>", "when trading closes: a duration from the service's now (90m, 48h, 7d, 2w) or an RFC 3339 instant")
    .option("--seed <amount>", "LMSR: the pool's seed in whole units of the collateral (the most the market can cost you)")
    .option("--source-note <text>", "you resolve it yourself, as this note says")
    .option("--polymarket <conditionId>", "it resolves as this Polymarket condition does")
    .option("--external-id <id>", "your id for the market, unique among your markets (default: a new one)")
    .option("--dry-run", "only check the terms: every failed check at once; nothing changes")
    .option("--resume <negotiationId>", "finish a creation an earlier run left half-way (accept and deploy what is left)")
    .option("--tx-hash <hash>", "on-chain, with --resume: the factory transaction that run sent (its `sent` line)")
    .option("--print", "on-chain: print the transactions to sign instead of sending them")
    .option("--rpc <url>", `on-chain: the chain's JSON-RPC (default PM_AGENT_RPC, else ${DEFAULT_RPC})`)
    .option("--wallet-key <hex>", "on-chain: the agent's wallet, which must send them (default PM_AGENT_WALLET_KEY, else this profile's wallet)")
    .action(async (o: CreateOptions, cmd: Command) => {
      const given = cmd.options.map((x) => x.attributeName()).filter((k) => cmd.getOptionValueSource(k) === "cli");
      if (o.resume !== undefined) {
        // The terms are the negotiation's: a term given with --resume would be silently ignored, so it is refused.
        const terms = given.filter((k) => !DEPLOY_OPTIONS.has(k));
        if (terms.length > 0) throw new UsageError(`--resume finishes the negotiation's own terms: leave out ${terms.map((k) => `--${kebab(k)}`).join(", ")}`);
      } else if (o.txHash !== undefined) throw new UsageError("--tx-hash goes with --resume");
      const api = client();
      let id = o.resume;
      if (id === undefined) {
        const body = await creationRequest(o, api);
        if (o.dryRun) {
          const { json } = await api.call<Json>("POST", "/negotiate/preflight", body);
          show(json, () => (json.ok ? `the terms pass every check (${json.lane} lane): nothing was created` : []));
          if (!json.ok) throw new Refused(`the terms fail ${json.failures.length} check(s); nothing was created`, json.failures.map(failureLine));
          return;
        }
        const { json: proposed } = await api.call<Json>("POST", "/negotiate/propose", body);
        id = proposed.id as string;
        // Said before the next step, so a run cut short leaves the way to finish it.
        io.err(`negotiation ${id} proposed; if this run stops, finish it with: pm-agent create-market --resume ${id}`);
      }
      const { json: n } = await api.call<Json>("GET", `/negotiate/${id}`);
      if (n.lane === "committed" && (o.print || o.txHash || o.walletKey || o.rpc))
        throw new UsageError("--print, --tx-hash, --rpc and --wallet-key are for the on-chain lane; this market is PM's (committed)");
      // A lapsed or rejected negotiation is refused by accept with its own code (NEGOTIATION_EXPIRED, NEGOTIATION_STATE).
      if (n.status !== "accepted" && n.status !== "deployed") await api.call<Json>("POST", `/negotiate/${id}/accept`, {});
      let txHash = o.txHash;
      if (n.status !== "deployed" && n.lane === "onchain" && txHash === undefined) {
        const sent = await sendCreation(cx, id, o);
        if (sent === null) return; // printed for the agent's wallet to send
        txHash = sent;
      }
      // On a deployed negotiation commit-deploy answers its stored result: a resumed run never creates twice.
      const { json: d } = await api.call<Json>("POST", `/negotiate/${id}/commit-deploy`, txHash === undefined ? {} : { txHash });
      const m = d.market;
      const { json: listed } = await api.call<Json>("GET", `/discover/markets/${m.address}`);
      const c = listed.collateral;
      show(d, () => [
        `listed ${m.address} (market ${m.marketId}, ${m.pricingModel === "ORDERBOOK" ? "order book" : "LMSR"}, ${d.lane} lane, ${c.symbol}), ${m.state}: ${m.outcomes.join(" / ")}`,
        `locked ${unitsText(d.locked.bond, PM_DECIMALS)} PM bond${d.locked.seed ? ` and ${unitsText(d.locked.seed, c.decimals)} ${c.symbol} seed` : ""}; closes ${instantText(m.closeTime)}; propose its outcome by ${instantText(m.creatorResolveBy)}`,
        ...(d.txHash ? [`created by ${d.txHash}`] : []),
      ]);
    });
}

/**
 * The on-chain deploy: prepare-deploy's transactions (the seed's approve, the factory's createMarket) sent in order from
 * the agent's wallet; the factory transaction's hash, or null when they were printed instead (asked to, no key, or a
 * resumed run, which may have sent them already: a second createMarket would be a second market with a second seed).
 */
async function sendCreation({ client, show, io, stored }: CliContext, id: string, o: CreateOptions): Promise<string | null> {
  const { json: p } = await client().call<Json>("POST", `/negotiate/${id}/prepare-deploy`, {});
  const key = o.walletKey ?? io.env.PM_AGENT_WALLET_KEY ?? stored()?.walletPrivateKey;
  if (o.print || o.resume !== undefined || !key) {
    show(p, () => [
      `negotiation ${id} accepted; deploy by ${instantText(p.deployBy)}. Send from the agent's wallet, in order, on chain ${p.chainId}:`,
      ...(p.transactions as Json[]).map((tx, i) => `  ${i + 1}. ${tx.description}: to ${tx.to}, value 0, data ${tx.data}`),
      `then: pm-agent create-market --resume ${id} --tx-hash <the last one's hash>`,
      ...(o.resume !== undefined && !o.print ? ["(a resumed run does not send them: if the run that stopped sent them, give the hash it printed)"] : []),
      ...(!key && !o.print ? ["(no wallet key to send them with: --wallet-key, PM_AGENT_WALLET_KEY, or a profile made by pm-agent register)"] : []),
    ]);
    return null;
  }
  const wallet = chainWallet(key, p.chainId, rpcOf(o.rpc, io.env), "--wallet-key");
  let hash = "";
  for (const tx of p.transactions as { to: string; data: string; description: string }[])
    hash = await wallet.send(tx, (h) => io.err(`sent ${h}: ${tx.description}`));
  io.err(`if this run stops, finish it with: pm-agent create-market --resume ${id} --tx-hash ${hash}`);
  return hash;
}

/** The creation request of docs/market-creation.md "The request", from the options; refuses what is missing. */
async function creationRequest(o: CreateOptions, api: ReturnType<CliContext["client"]>): Promise<Json> {
  const missing = [
    !o.title && "--title",
    !o.close && "--close",
    o.pricing === "lmsr" && !o.seed && "--seed",
    !o.sourceNote && !o.polymarket && "--source-note or --polymarket",
  ].filter(Boolean);
  if (missing.length > 0) throw new UsageError(`create-market needs ${missing.join(", ")}`);
  if (o.sourceNote && o.polymarket) throw new UsageError("give --source-note or --polymarket, not both");
  if (o.pricing === "orderbook" && o.seed) throw new UsageError("an order-book market has no seed: leave out --seed");
  const [{ json: time }, { json: config }] = await Promise.all([api.call<Json>("GET", "/time"), api.call<Json>("GET", "/markets/config")]);
  // PM is served even before any contract is deployed (the ledger runs in the service), when the config lists no token.
  const served = [{ symbol: "PM", decimals: PM_DECIMALS }, ...(config.collaterals as Json[]).filter((c) => c.symbol !== "PM")];
  const collateral = served.find((c) => c.symbol.toLowerCase() === o.collateral.toLowerCase());
  if (!collateral) throw new UsageError(`--collateral must be one this service serves: ${served.map((c) => c.symbol).join(", ")}`);
  return {
    externalId: o.externalId ?? `cli-${randomUUID()}`,
    title: o.title,
    ...(o.description ? { description: o.description } : {}),
    category: o.category,
    outcomes: o.outcomes.split(",").map((l) => l.trim()),
    pricingModel: o.pricing === "lmsr" ? "automated" : "ORDERBOOK",
    collateral: collateral.symbol,
    closeTime: new Date(instantOf(o.close!, time.serverTime, "--close")).toISOString(),
    ...(o.seed ? { seed: unitsOf(o.seed, collateral.decimals, "--seed") } : {}),
    resolutionSource: o.polymarket ? { type: "polymarket", conditionId: o.polymarket } : { type: "creator", note: o.sourceNote },
  };
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
