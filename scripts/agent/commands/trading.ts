/**
 * pm-agent's trading commands: balances, order (a limit order on a book), quote and trade (at the market's price, either
 * pricing model), orders, cancel.
 */
import { Option } from "commander";
import { percentText, unitsText } from "../../../api/transports/site/format";
import { type CliContext, type Json, keyLine, table } from "../context";
import { probabilityToBps, sharesOf } from "../units";

export function addTradingCommands({ program, client, show }: CliContext): void {
  program
    .command("balances")
    .description("PM and shares held by the agent's ledger account")
    .action(async () => {
      const { json } = await client().call<Json>("GET", "/orderbook/balances");
      show(json, () => [
        `account ${json.account}`,
        table([
          ["ASSET", "MARKET", "OUTCOME", "TOTAL", "AVAILABLE"],
          ...json.balances.map((b: Json) => [
            b.asset,
            b.market ?? "",
            b.outcome === undefined ? "" : String(b.outcome),
            unitsText(b.total, 6),
            unitsText(b.available, 6),
          ]),
        ]),
      ]);
    });

  /** A command on one market's outcome and side (a quote, a trade, an order). */
  const marketCommand = (name: string, description: string) =>
    program
      .command(`${name} <market>`)
      .description(description)
      .requiredOption("--outcome <index>", "outcome index (0 = the first, YES on a binary market)")
      .addOption(new Option("--side <side>", "buy or sell").choices(["buy", "sell"]).makeOptionMandatory());
  /** A trading write: with the Idempotency-Key to resend it with. */
  const marketWrite = (name: string, description: string) =>
    marketCommand(name, description).option("--idempotency-key <key>", "resend a write with the key printed before: it is applied once");

  marketWrite("order", "place a limit order on an order-book market (sizes in whole shares, prices as probabilities)")
    .requiredOption("--price <probability>", "limit price as a probability, e.g. 0.55")
    .requiredOption("--size <shares>", "shares, e.g. 10 or 2.5")
    .addOption(new Option("--tif <timeInForce>", "time in force").choices(["GTC", "IOC", "FOK"]).default("GTC"))
    .option("--client-order-id <id>", "your own id for the order")
    .action(async (market: string, o: Json) => {
      const api = client();
      const { json: m } = await api.call<Json>("GET", `/discover/markets/${market}`);
      const size = sharesOf(o.size, m.collateral.decimals);
      const body = {
        market,
        outcome: Number(o.outcome),
        side: o.side,
        priceBps: probabilityToBps(o.price),
        size,
        timeInForce: o.tif,
        ...(o.clientOrderId ? { clientOrderId: o.clientOrderId } : {}),
      };
      const res = await api.call<Json>("POST", "/orderbook/place-order", body, { idempotencyKey: o.idempotencyKey });
      const order = res.json.orders[0];
      show(res.json, () => [
        `${order.orderId} ${order.status}: ${order.side} ${unitsText(order.size, m.collateral.decimals)} of ${m.outcomes[order.outcome]?.label ?? order.outcome} at ${percentText(Number(order.priceBps) / 10_000)}, filled ${unitsText(order.filledSize, m.collateral.decimals)} in ${order.fills.length} fill(s)${res.replayed ? " (replayed: this key was already applied)" : ""}`,
        `idempotency key ${res.idempotencyKey}; fills remaining ${res.json.fillsRemaining}`,
      ]);
    });

  /** The body of a trade at the market's price (`/trade/quote` and `/trade/prepare` take the same), in base units. */
  const tradeBody = (market: string, o: Json, m: Json) => ({
    market,
    outcome: Number(o.outcome),
    side: o.side as "buy" | "sell",
    shares: sharesOf(o.shares, m.collateral.decimals),
    ...(o.slippageBps === undefined ? {} : { slippageBps: Number(o.slippageBps) }),
  });
  const SHARES = "shares, e.g. 10 or 2.5";
  const SLIPPAGE = "how far the price may move against you, in basis points (default the service's)";

  marketCommand("quote", "what a trade at the market's price would cost or pay now, and the bound trade would hold it to; changes nothing")
    .requiredOption("--shares <shares>", SHARES)
    .option("--slippage-bps <bps>", SLIPPAGE)
    .action(async (market: string, o: Json) => {
      const api = client();
      const { json: m } = await api.call<Json>("GET", `/discover/markets/${market}`);
      const { json: q } = await api.call<Json>("POST", "/trade/quote", tradeBody(market, o, m));
      const d = m.collateral.decimals;
      const pm = (units: string) => `${unitsText(units, d)} ${m.collateral.symbol}`;
      const what = `${q.side} ${unitsText(q.shares, d)} of ${m.outcomes[q.outcome]?.label ?? q.outcome}`;
      show(q, () =>
        q.lane === "onchain"
          ? `${what}: ${pm(q.amount)} with ${pm(q.fee)} fee, average ${percentText(q.averagePrice)}, then ${percentText(q.priceAfter)}; limit ${pm(q.limit)} at ${q.slippageBps} bps slippage`
          : q.pricingModel === "ORDERBOOK"
            ? `${what}: the book holds ${unitsText(q.fillableShares, d)} within reach for ${pm(q.notional)} and ${pm(q.fee)} fee` +
              (q.averagePriceBps === null
                ? ""
                : `, average ${percentText(Number(q.averagePriceBps) / 10_000)}, worst ${percentText(Number(q.worstPriceBps) / 10_000)}`) +
              (q.limitPriceBps === null ? "" : `; limit ${percentText(Number(q.limitPriceBps) / 10_000)} at ${q.slippageBps} bps slippage`)
            : `${what}: ${q.side === "buy" ? `costs ${pm(q.cost)} (at most ${pm(q.maxCost)}` : `pays ${pm(q.proceeds)} (at least ${pm(q.minProceeds)}`} at ${q.slippageBps} bps slippage), fee ${pm(q.fee)}, average ${percentText(q.averageProbability)}, then ${percentText(q.probabilityAfter)}`,
      );
    });

  marketWrite("trade", "trade now at the market's price (either pricing model): buy or sell whole shares within a slippage bound")
    .requiredOption("--shares <shares>", SHARES)
    .option("--slippage-bps <bps>", SLIPPAGE)
    .action(async (market: string, o: Json) => {
      const api = client();
      const { json: m } = await api.call<Json>("GET", `/discover/markets/${market}`);
      const body = tradeBody(market, o, m);
      const res = await api.call<Json>("POST", "/trade/prepare", body, { idempotencyKey: o.idempotencyKey });
      const t = res.json;
      const d = m.collateral.decimals;
      const label = m.outcomes[body.outcome]?.label ?? String(body.outcome);
      show(t, () => [
        t.lane === "onchain"
          ? `prepared an on-chain trade intent ${t.digest}: sign it and POST /trade/submit (docs/trading-onchain.md)`
          : t.pricingModel === "ORDERBOOK"
            ? `${t.orderId} ${t.status}: ${body.side} ${unitsText(body.shares, d)} of ${label}, ${t.executed ? "filled" : "nothing filled"}`
            : `${body.side === "buy" ? "bought" : "sold"} ${unitsText(t.shares, d)} of ${label} for ${unitsText(t.cost ?? t.proceeds, d)} ${m.collateral.symbol}`,
        keyLine(res),
      ]);
    });

  program
    .command("orders")
    .description("the agent's open orders")
    .action(async () => {
      const { json } = await client().call<Json>("GET", "/orderbook/orders");
      show(json, () =>
        json.orders.length === 0
          ? "no open order"
          : table([
              ["ORDER", "MARKET", "OUTCOME", "SIDE", "PRICE", "REMAINING"],
              ...json.orders.map((x: Json) => [
                x.orderId,
                x.market,
                String(x.outcome),
                x.side,
                percentText(Number(x.priceBps) / 10_000),
                unitsText(x.remainingSize, 6),
              ]),
            ]),
      );
    });

  program
    .command("cancel <orderId>")
    .description("cancel an open order (o-<n>)")
    .action(async (orderId: string) => {
      const { json } = await client().call<Json>("POST", "/orderbook/cancel-order", { orderId });
      show(json, () => `${json.order.orderId} ${json.order.status}`);
    });
}
