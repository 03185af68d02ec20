/**
 * A deterministic trading run for tests and the bench: accounts opened and credited, one binary order-book market,
 * then pairs of crossing orders (a resting YES buy met by a NO buy: a MINT fill each time).
 */
import type { Address } from "viem";
import type { Accepted, Command, EngineConfig } from "../engine";
import type { Submitted } from "./exchange";

export const RUN_TREASURY = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc" as Address;
export const runEngineConfig: EngineConfig = { treasury: RUN_TREASURY, allowance: { enabled: false, freePerPeriod: 0, periodMs: 86_400_000 } };

export const traderOf = (i: number): Address => `0x${(0xa000 + i).toString(16).padStart(40, "0")}` as Address;

/** Opening commands: `traders` accounts opened and credited, market 1 created. */
export function setupCommands(traders: number, at: number): Command[] {
  const out: Command[] = [];
  for (let i = 0; i < traders; i++) {
    out.push({ type: "openAccount", account: traderOf(i), signupAt: at });
    out.push({ type: "credit", account: traderOf(i), amount: 10n ** 15n, reason: "GRANT" });
  }
  out.push({
    type: "createMarket",
    marketId: 1n,
    pricing: "ORDERBOOK",
    outcomes: 2,
    feeModel: "notional-v1",
    takerFeeBps: 50,
    sellExitFeeBps: 0,
    winningsExitFeeBps: 0,
  });
  return out;
}

/** Trade k: maker rests a YES buy, taker crosses it with a NO buy (MINT). Two commands per trade. */
export function tradeCommands(k: number, traders: number): [Command, Command] {
  const maker = traderOf((2 * k) % traders);
  const taker = traderOf((2 * k + 1) % traders);
  const priceBps = 4000 + (k % 20) * 100;
  const size = 10_000n * BigInt(1 + (k % 5));
  return [
    { type: "placeOrder", account: maker, marketId: 1n, outcome: 0, action: "buy", priceBps, size, tif: "GTC", clientOrderId: `m${k}` },
    { type: "placeOrder", account: taker, marketId: 1n, outcome: 1, action: "buy", priceBps: 10_000 - priceBps, size, tif: "IOC", clientOrderId: `t${k}` },
  ];
}

/** The accepted answer of a command in a run where every command must pass; a refusal stops the run. */
export function expectAccepted<C extends Command>(r: Submitted<C>): Accepted<C> {
  if (!r.ok) throw new Error(`command refused: ${r.code} ${r.message}`);
  return r;
}
