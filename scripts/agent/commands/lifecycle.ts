/**
 * pm-agent's commands for a market's life beyond trading: create-market (the negotiate flow in one command, the
 * on-chain lane's transactions signed by the agent's wallet; docs/market-creation.md), resolve (the state and the acts of docs/resolution.md), payouts and creator-funds.
 */
import { randomUUID } from "node:crypto";
import { type Command, Option } from "commander";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { councilTypedData } from "../../../api/domain/lifecycle/council";
import { instantText, unitsText } from "../../../api/transports/site/format";
import { PM_DECIMALS } from "../../../relayer/lifecycle/rules";
import { chainWallet, DEFAULT_RPC, rpcOf } from "../chain";
import { type CliContext, failureLine, type Json, Refused, table, UsageError } from "../context";
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

export function addLifecycleCommands({ program, client, show, io, stored }: CliContext): void {
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
        const { json: p } = await api.call<Json>("POST", `/negotiate/${id}/prepare-deploy`, {});
        const key = o.walletKey ?? io.env.PM_AGENT_WALLET_KEY ?? stored()?.walletPrivateKey;
        // A resumed run may have sent them already: it prints them rather than risk a second market on chain.
        if (o.print || o.resume !== undefined || !key) {
          show(p, () => [
            `negotiation ${id} accepted; deploy by ${instantText(p.deployBy)}. Send from the agent's wallet, in order, on chain ${p.chainId}:`,
            ...(p.transactions as Json[]).map((tx, i) => `  ${i + 1}. ${tx.description}: to ${tx.to}, value 0, data ${tx.data}`),
            `then: pm-agent create-market --resume ${id} --tx-hash <the last one's hash>`,
            ...(o.resume !== undefined && !o.print ? ["(a resumed run does not send them: if the run that stopped sent them, give the hash it printed)"] : []),
            ...(!key && !o.print ? ["(no wallet key to send them with: --wallet-key, PM_AGENT_WALLET_KEY, or a profile made by pm-agent register)"] : []),
          ]);
          return;
        }
        const wallet = chainWallet(key, p.chainId, rpcOf(o.rpc, io.env), "--wallet-key");
        for (const tx of p.transactions as { to: string; data: string; description: string }[])
          txHash = await wallet.send(tx, (h) => io.err(`sent ${h}: ${tx.description}`));
        io.err(`if this run stops, finish it with: pm-agent create-market --resume ${id} --tx-hash ${txHash}`);
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

  const resolve = program.command("resolve").description("a market's resolution: its state and the acts on it (docs/resolution.md)");

  resolve
    .command("state <market>")
    .description("the market's resolution state, deadlines, and what this agent may do now")
    .action(async (market: string) => {
      const { json: s } = await client(keyedIfSaved()).call<Json>("GET", `/discover/markets/${market}/resolution-state`);
      show(s, () => [...stateLines(s), ...actionLines(s)]);
    });

  /** A resolution act's command; `actAnswer` sends it (POST /resolve/<path>, the market and its own fields) and prints the state after it. */
  const act = (name: string, description: string) =>
    resolve
      .command(`${name} <market>`)
      .description(description)
      .option("--idempotency-key <key>", "resend an act with the key printed before: it is applied once");
  const actAnswer = async (path: string, market: string, o: { idempotencyKey?: string }, extra: Json = {}) => {
    const res = await client().call<Json>("POST", `/resolve/${path}`, { market, ...extra }, { idempotencyKey: o.idempotencyKey });
    const a = res.json;
    show(a, () => [
      ...a.transitions.map((t: Json) => `${t.from ?? "-"} -> ${t.to} (${t.reason})`),
      ...(a.ballot
        ? [`ballot in session ${a.ballot.session}: ${unitsText(a.ballot.stake, PM_DECIMALS)} PM staked, sealed until ${instantText(a.ballot.revealAt)}`]
        : []),
      ...stateLines(a.market),
      `idempotency key ${res.idempotencyKey}${res.replayed ? " (replayed: this key was already applied)" : ""}`,
    ]);
  };

  act("propose", "as the market's creator, propose its outcome once it closed")
    .requiredOption("--outcome <index>", 'the outcome index (0 = the first), or "void"')
    .action((market: string, o: { outcome: string; idempotencyKey?: string }) =>
      actAnswer("propose", market, o, { outcome: o.outcome === "void" ? "void" : outcomeIndex(o.outcome) }),
    );
  act("challenge", "challenge the proposed outcome, with a bond equal to the creation bond").action((market: string, o: { idempotencyKey?: string }) =>
    actAnswer("challenge", market, o),
  );
  act("vote", "cast a staked, sealed ballot in the market's vote")
    .requiredOption("--outcome <index>", "the outcome index voted")
    .action((market: string, o: { outcome: string; idempotencyKey?: string }) => actAnswer("vote", market, o, { outcome: outcomeIndex(o.outcome) }));
  act("declare-mia", "declare the creator missing once its window to propose has passed").action((market: string, o: { idempotencyKey?: string }) =>
    actAnswer("declare-mia", market, o),
  );

  resolve
    .command("council <market>")
    .description("as an appointed council member, in council review: decide the outcome (or void) or restart the vote, signed by your wallet")
    .option("--decide <outcome>", 'the outcome index decided, or "void"')
    .option("--restart", "restart the vote for integrity (the session's stakes are refunded)")
    .option("--session <n>", "the vote session the act concerns (default: the market's current one)")
    .option("--member-key <hex>", "the member's wallet, which signs (default PM_AGENT_MEMBER_KEY, else this profile's wallet)")
    .option("--idempotency-key <key>", "resend an act with the key printed before: it is applied once")
    .action(async (market: string, o: { decide?: string; restart?: boolean; session?: string; memberKey?: string; idempotencyKey?: string }) => {
      if ((o.decide === undefined) === !o.restart) throw new UsageError("give --decide <outcome> or --restart");
      const outcome = o.decide === undefined ? undefined : o.decide === "void" ? "void" : outcomeIndex(o.decide, "--decide");
      if (o.session !== undefined && !/^\d{1,5}$/.test(o.session)) throw new UsageError(`--session must be a vote session number; got ${o.session}`);
      const key = o.memberKey ?? io.env.PM_AGENT_MEMBER_KEY ?? stored()?.walletPrivateKey;
      if (!key) throw new UsageError("no wallet to sign with: --member-key, PM_AGENT_MEMBER_KEY, or a profile made by pm-agent register");
      if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new UsageError("--member-key must be 0x + 64 hex digits");
      const { json: s } = await client().call<Json>("GET", `/discover/markets/${market}/resolution-state`);
      const session = o.session === undefined ? (s.vote?.session ?? 1) : Number(o.session);
      const member = privateKeyToAccount(key as Hex);
      const action = o.restart ? ("restart" as const) : ("decide" as const);
      // What the member signs names the market, its session and the act, so the signature acts once (docs/resolution.md).
      const signature = await member.signTypedData(
        councilTypedData(s.chainId, {
          market: s.marketAddress as Address,
          marketId: BigInt(s.marketId),
          session,
          action,
          outcome: outcome === undefined ? "" : String(outcome),
        }),
      );
      await actAnswer("council", market, o, { action, ...(outcome === undefined ? {} : { outcome }), session, member: member.address, signature });
    });

  program
    .command("payouts")
    .description("the agent's payouts from resolved markets (PM ones were credited at resolution)")
    .option("--limit <n>", "how many (1..200)", "100")
    .action(async (o: { limit: string }) => {
      const { json } = await client().call<Json>("GET", `/claims/available?limit=${encodeURIComponent(o.limit)}`);
      const decimalsOf = (chainId: number) => (json.valueTotals as Json[]).find((v) => v.chainId === chainId)?.decimals ?? PM_DECIMALS;
      show(json, () =>
        json.payouts.length === 0
          ? "no payout"
          : [
              table([
                ["MARKET", "AMOUNT", "STATUS", "SINCE"],
                ...json.payouts.map((p: Json) => [p.marketAddress, unitsText(p.amount, decimalsOf(p.chainId)), p.status, instantText(p.createdAt)]),
              ]),
              ...(json.valueTotals as Json[]).map((v) => `total ${v.totalFormatted} ${v.symbol}`),
              ...(json.hasMore ? [`more with: pm-agent call GET "/claims/available?cursor=${json.nextCursor}"`] : []),
            ],
      );
    });

  program
    .command("creator-funds [markets...]")
    .description("as a creator: each market's residual (collectable once final) and its creation bond; --collect takes the residuals")
    .option("--collect", "collect the residual of the named final markets, or of every collectable one (50 a call)")
    .option("--idempotency-key <key>", "resend a collection with the key printed before: it is applied once")
    .action(async (markets: string[], o: { collect?: boolean; idempotencyKey?: string }) => {
      const api = client();
      if (!o.collect) {
        if (markets.length > 0) throw new UsageError("name markets only with --collect (without it every market of yours is listed)");
        const { json } = await api.call<Json>("GET", "/trade/creator-funds");
        const rows = json.creatorFunds.markets as Json[];
        show(json, () =>
          rows.length === 0
            ? "no market created by this agent"
            : [
                table([
                  ["MARKET", "RESIDUAL", "STATUS", "BOND", "BOND STATUS", "TITLE"],
                  ...rows.map((m) => [
                    m.marketAddress,
                    `${m.marketBalance.amountFormatted} ${m.marketBalance.symbol}`,
                    m.marketBalance.status,
                    `${m.bond.amountFormatted} PM`,
                    m.bond.displayStatus,
                    m.marketTitle,
                  ]),
                ]),
                `${json.creatorFunds.summary.collectableCount} collectable: pm-agent creator-funds --collect`,
              ],
        );
        return;
      }
      const body = markets.length > 0 ? { marketAddresses: markets } : {};
      const res = await api.call<Json>("POST", "/trade/creator-funds/collect", body, { idempotencyKey: o.idempotencyKey });
      const rows = res.json.collections as Json[];
      show(res.json, () => [
        rows.length === 0
          ? "nothing to collect"
          : table([
              ["MARKET", "RESIDUAL", "AMOUNT"],
              ...rows.map((c) => [
                c.marketAddress,
                c.marketBalance.skippedReason ? `${c.marketBalance.state} (${c.marketBalance.skippedReason})` : c.marketBalance.state,
                unitsText(c.marketBalance.amount, PM_DECIMALS),
              ]),
            ]),
        ...(res.json.hasMore ? ["more remain: run it again"] : []),
        `idempotency key ${res.idempotencyKey}${res.replayed ? " (replayed: this key was already applied)" : ""}`,
      ]);
    });

  /** Reads carry the key when one is saved (the state then names this agent's actions), else go without. */
  function keyedIfSaved(): boolean {
    try {
      client();
      return true;
    } catch (err) {
      if (err instanceof UsageError) return false;
      throw err;
    }
  }
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

function outcomeIndex(text: string, option = "--outcome"): number {
  if (!/^\d{1,3}$/.test(text)) throw new UsageError(`${option} must be an outcome index such as 0 or 1; got ${text}`);
  return Number(text);
}

/** The lifecycle in a few lines: state, proposal, vote, verdict, the next deadline. */
function stateLines(s: Json): string[] {
  const lines = [`${s.marketAddress}: ${s.effectiveState ?? s.state} (${s.outcomes.map((l: string, i: number) => `${i} ${l}`).join(", ")})`];
  if (s.proposal) lines.push(`proposed ${s.proposal.label} at ${instantText(s.proposal.at)}${s.challenger ? `, challenged by ${s.challenger}` : ""}`);
  if (s.vote) lines.push(`vote session ${s.vote.session}: ${s.vote.ballots} ballot(s), quorum ${s.vote.quorum}, ends ${instantText(s.vote.endsAt)}`);
  if (s.verdict) lines.push(`resolved ${s.verdict.label}${s.finalAt ? ` at ${instantText(s.finalAt)}` : ""}`);
  return lines;
}

/** The caller's actions (resolution-state with a key): what it may do now, or why not. */
function actionLines(s: Json): string[] {
  if (!s.caller) return ["(read without a key: with one, this agent's own actions show here)"];
  return [
    table([
      ["ACTION", "NOW", "UNTIL", "LOCKS"],
      ...(s.availableActions as Json[]).map((a) => [
        a.action,
        a.allowed ? "yes" : `no: ${a.reason}`,
        a.until ? instantText(a.until) : "",
        a.cost ? `${unitsText(a.cost.amount, PM_DECIMALS)} PM ${a.cost.kind}` : "",
      ]),
    ]),
  ];
}
