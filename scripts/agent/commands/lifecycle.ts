/**
 * pm-agent's commands for a market's life after trading: resolve (the state and the acts of docs/resolution.md, the
 * council's signed by a member's wallet), payouts and creator-funds. Creating a market is ./create-market.ts.
 */
import type { Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { councilTypedData } from "../../../api/domain/lifecycle/council";
import { instantText, unitsText } from "../../../api/transports/site/format";
import { PM_DECIMALS } from "../../../relayer/lifecycle/rules";
import { walletKey } from "../chain";
import { type CliContext, type Json, keyLine, table, UsageError } from "../context";

export function addLifecycleCommands({ program, client, hasKey, show, io, stored }: CliContext): void {
  const resolve = program.command("resolve").description("a market's resolution: its state and the acts on it (docs/resolution.md)");

  resolve
    .command("state <market>")
    .description("the market's resolution state, deadlines, and what this agent may do now")
    .action(async (market: string) => {
      const { json: s } = await client(hasKey()).call<Json>("GET", `/discover/markets/${market}/resolution-state`);
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
      keyLine(res),
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
      const member = privateKeyToAccount(walletKey(key, "--member-key"));
      const { json: s } = await client().call<Json>("GET", `/discover/markets/${market}/resolution-state`);
      const session = o.session === undefined ? (s.vote?.session ?? 1) : Number(o.session);
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
        keyLine(res),
      ]);
    });
}

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
