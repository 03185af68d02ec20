/**
 * EIP-712 TradeIntents of the IntentRouter (docs/trading-onchain.md): the typed data an agent signs, its digest, and
 * the check that a signature is the trader's. The router re-checks all of it on chain; these only fail early.
 */
import { randomBytes } from "node:crypto";
import { hashTypedData, recoverTypedDataAddress, type Address, type Hex } from "viem";
import type { OnchainQuote, PreparedIntent, TradeIntentMessage } from "./trade-answers";

/** How long a prepared intent may be submitted (its `deadline`). */
export const INTENT_TTL_SECONDS = 300;

export const TRADE_INTENT_TYPES = {
  TradeIntent: [
    { name: "trader", type: "address" },
    { name: "market", type: "address" },
    { name: "outcome", type: "uint8" },
    { name: "isBuy", type: "bool" },
    { name: "amount", type: "uint256" },
    { name: "limit", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "nonce", type: "uint256" },
  ],
} as const;

/** The intent's fields as the JSON carries them (integers as decimal strings). */
export type IntentFields = TradeIntentMessage;

const domainOf = (chainId: number, router: Address) => ({ name: "IntentRouter", version: "1", chainId, verifyingContract: router }) as const;

/** The contract's argument: the same fields with integers as bigint. */
export const intentArgs = (i: IntentFields) => ({
  trader: i.trader as Address,
  market: i.market as Address,
  outcome: i.outcome,
  isBuy: i.isBuy,
  amount: BigInt(i.amount),
  limit: BigInt(i.limit),
  deadline: BigInt(i.deadline),
  nonce: BigInt(i.nonce),
});

/** The intent of `quote` for `trader` through `router`: deadline now + INTENT_TTL_SECONDS, a random 128-bit nonce. */
export function buildIntent(a: {
  chainId: number;
  router: Address;
  trader: Address;
  quote: OnchainQuote;
  now: number;
}): Omit<PreparedIntent, "lane" | "market" | "status" | "quote" | "submit"> {
  const deadline = BigInt(Math.floor(a.now / 1000) + INTENT_TTL_SECONDS);
  const nonce = BigInt(`0x${randomBytes(16).toString("hex")}`);
  const domain = domainOf(a.chainId, a.router);
  const message = {
    trader: a.trader,
    market: a.quote.market as Address,
    outcome: a.quote.outcome,
    isBuy: a.quote.side === "buy",
    amount: BigInt(a.quote.shares),
    limit: BigInt(a.quote.limit),
    deadline,
    nonce,
  };
  const digest = hashTypedData({ domain, types: TRADE_INTENT_TYPES, primaryType: "TradeIntent", message });
  const intent: IntentFields = {
    ...message,
    amount: message.amount.toString(),
    limit: message.limit.toString(),
    deadline: deadline.toString(),
    nonce: nonce.toString(),
  };
  return {
    digest,
    router: a.router,
    intent,
    typedData: { domain, types: { TradeIntent: [...TRADE_INTENT_TYPES.TradeIntent] }, primaryType: "TradeIntent", message: intent },
    expiresAt: new Date(Number(deadline) * 1000).toISOString(),
  };
}

/** Whether `signature` is the trader's over the intent (EOA signatures; contract wallets are checked on chain). */
export async function signatureMatches(chainId: number, router: Address, intent: IntentFields, signature: Hex): Promise<boolean> {
  try {
    const signer = await recoverTypedDataAddress({
      domain: domainOf(chainId, router),
      types: TRADE_INTENT_TYPES,
      primaryType: "TradeIntent",
      message: intentArgs(intent),
      signature,
    });
    return signer.toLowerCase() === intent.trader.toLowerCase();
  } catch {
    return false;
  }
}
