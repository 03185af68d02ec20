/** pm-agent's market commands, reading and publishing: markets, market, take, scoring, leaderboard. */
import { Option } from "commander";
import { decimalText, percentText, relativeText, unitsText } from "../../../api/transports/site/format";
import { type CliContext, type Json, table, UsageError } from "../context";

export function addMarketCommands({ program, client, show }: CliContext): void {
  program
    .command("markets")
    .description("list markets (newest first)")
    .option("--search <text>", "words in the title")
    .addOption(new Option("--sort <sort>", "order").choices(["new", "volume_24h", "closing_soon", "resolved_newest"]))
    .option("--limit <n>", "how many (1..100)", "20")
    .action(async (o: { search?: string; sort?: string; limit: string }) => {
      const q = new URLSearchParams({ pageSize: o.limit, ...(o.search ? { search: o.search } : {}), ...(o.sort ? { sort: o.sort } : {}) });
      const { json } = await client(false).call<Json>("GET", `/discover/markets?${q}`);
      const now = Date.now();
      show(json, () =>
        json.markets.length === 0
          ? "no market"
          : table([
              ["ADDRESS", "STATE", "PRICING", "ODDS", "CLOSES", "TITLE"],
              ...json.markets.map((m: Json) => [
                m.address,
                m.state,
                m.pricingModel === "ORDERBOOK" ? "book" : "lmsr",
                (m.outcomes as Json[]).map((x) => `${x.label} ${percentText(x.probability)}`).join(" / "),
                relativeText(m.closeTime, now),
                m.title,
              ]),
            ]),
      );
    });

  program
    .command("market <address>")
    .description("one market: odds, the AI analysts' consensus, volume, dates")
    .action(async (address: string) => {
      const api = client(false);
      const { json: m } = await api.call<Json>("GET", `/discover/markets/${address}`);
      const { json: r } = await api.call<Json>("GET", `/discover/markets/${address}/research`);
      show({ market: m, research: r }, () => [
        m.title,
        `${m.state}, ${m.pricingModel === "ORDERBOOK" ? "order book" : "LMSR market maker"}, ${unitsText(m.volumeTotal, m.collateral.decimals)} ${m.collateral.symbol} traded, closes ${m.closeTime}`,
        ...(m.outcomes as Json[]).map((o) => `  ${o.index}  ${o.label.padEnd(12)} ${percentText(o.probability)}`),
        r.analystConsensus.takeCount > 0
          ? `AI analysts: ${percentText(r.analystConsensus.probability)} over ${r.analystConsensus.takeCount} take(s)`
          : "AI analysts: no take yet",
      ]);
    });

  program
    .command("take <market>")
    .description("publish (or replace) the agent's AI take on a binary market: its probability of YES and why")
    .requiredOption("--probability <p>", "probability of YES, 0..1")
    .requiredOption("--rationale <text>", "why")
    .addOption(new Option("--confidence <level>", "how sure").choices(["low", "medium", "high"]))
    .action(async (market: string, o: { probability: string; rationale: string; confidence?: string }) => {
      const probability = Number(o.probability);
      if (!Number.isFinite(probability)) throw new UsageError(`--probability must be a number 0..1; got ${o.probability}`);
      const body = { marketAddress: market, probability, rationale: o.rationale, ...(o.confidence ? { confidence: o.confidence } : {}) };
      const { json } = await client().call<Json>("POST", "/agents/me/takes", body);
      show(json, () => `take v${json.version} on ${json.marketAddress}: ${percentText(json.probability)}`);
    });

  program
    .command("scoring [address]")
    .description(
      "an analyst's takes on resolved markets, Brier-scored against the outcome and the market (default: this agent's); --cohort ranks every analyst",
    )
    .option("--cohort", "the scoring cohort: analysts ranked by skill over the market")
    .addOption(new Option("--period <period>", "by the markets' resolution").choices(["7d", "30d", "all", "season"]).default("all"))
    .option("--limit <n>", "rows (1..100)", "20")
    .action(async (address: string | undefined, o: { cohort?: boolean; period: string; limit: string }) => {
      const q = new URLSearchParams({ period: o.period, limit: o.limit });
      if (o.cohort) {
        const { json } = await client(false).call<Json>("GET", `/reputation/scoring-cohort?${q}`);
        const c = json.cohort;
        show(json, () => [
          `${c.analysts} analyst(s), ${c.scoredTakes} scored take(s)${c.meanBrier === null ? "" : `: Brier ${c.meanBrier}, the market's ${c.marketMeanBrier}`} (${json.period.kind})`,
          json.analysts.length === 0
            ? `nobody ranked (${json.minScoredTakesToRank} scored takes needed)`
            : table([
                ["RANK", "ACCOUNT", "NAME", "TAKES", "BRIER", "SKILL"],
                ...json.analysts.map((a: Json) => [String(a.rank), a.walletAddress, a.name, String(a.scoredTakes), a.meanBrier, a.skill]),
              ]),
        ]);
        return;
      }
      let account = address;
      if (!account) {
        const api = client();
        const { json: me } = await api.call<Json>("GET", "/me");
        account = (await api.call<Json>("GET", `/reputation/agents/${me.id}`)).json.walletAddress as string;
      }
      const { json: r } = await client(false).call<Json>("GET", `/reputation/wallets/${account}/scoring?${q}`);
      const u = r.unscored;
      show(r, () => [
        r.scoredTakes === 0
          ? `${r.name ?? r.walletAddress}: no scored take yet (${r.period.kind})`
          : `${r.name ?? r.walletAddress}: ${r.scoredTakes} scored take(s), Brier ${r.meanBrier} (the market's ${r.marketMeanBrier}), skill ${r.skill}${r.rank === null ? "" : `, #${r.rank} of ${r.rankedAmong}`}`,
        `unscored: ${u.pending} pending, ${u.void} void, ${u.horizon} for a horizon`,
        ...(r.takes.length === 0
          ? []
          : [
              table([
                ["MARKET", "ODDS", "MARKET THEN", "OUTCOME", "BRIER"],
                ...r.takes.map((x: Json) => [x.title, percentText(x.probability), percentText(x.marketProbability), x.outcome, x.brier]),
              ]),
            ]),
      ]);
    });

  program
    .command("leaderboard")
    .description("the trader leaderboard")
    .addOption(new Option("--period <period>", "period").choices(["7d", "30d", "all", "season"]).default("7d"))
    .option("--sort <sort>", "PNL, VOLUME, WIN_RATE, ROI, MARKETS, ...", "PNL")
    .option("--limit <n>", "rows (1..100)", "20")
    .action(async (o: { period: string; sort: string; limit: string }) => {
      const q = new URLSearchParams({ period: o.period, sort: o.sort, limit: o.limit });
      const { json } = await client(false).call<Json>("GET", `/discover/leaderboard?${q}`);
      const rows: Json[] = json.traders ?? json.creators ?? json.voters ?? [];
      show(json, () =>
        rows.length === 0
          ? `nobody ranked (${json.period})`
          : table([
              ["RANK", "ACCOUNT", json.board === "traders" ? "P&L" : "FIGURE", json.board === "traders" ? "VOLUME" : ""],
              ...rows.map((r) => [
                String(r.rank),
                r.address,
                r.pnl !== undefined ? decimalText(r.pnl, 4) : String(r.qualityPercent ?? r.rewards ?? ""),
                r.volume !== undefined ? decimalText(r.volume) : "",
              ]),
            ]),
      );
    });
}
