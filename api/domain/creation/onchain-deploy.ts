/**
 * The on-chain lane of the deploy steps: the transactions the creator signs (approve the factory for the seed, then
 * the factory's createMarket with the negotiation's terms hash), and the check of the creation receipt against the
 * accepted terms before the market is listed. The factory emits the terms hash without checking it, so the check is
 * ours: the MarketCreated log of the expected factory must carry this negotiation's hash, its creator's wallet, the
 * collateral, seed, close time, question, outcome count and the stamped fees of the terms.
 */
import { createPublicClient, encodeFunctionData, http, parseEventLogs, type Address, type Hex } from "viem";
import type { Config } from "../../config";
import { lmsrFactoryAbi, testUSDCAbi } from "../../../generated/abis";
import { rpcChain } from "../../../relayer/rpc-chain";
import type { SqlRunner } from "../../../relayer/db/client";
import { ApiError } from "../../platform/errors/api-error";
import { insertCatalogMarket, loadMarket } from "../markets/catalog-store";
import type { CatalogMarket, NewCatalogMarket } from "../markets/catalog-types";
import { currentDeployment } from "../markets/venue-documents";
import type { Negotiation } from "./negotiation-store";

export interface VerifiedCreation {
  txHash: string;
  market: string;
  /** The OutcomeToken market id (not the engine id). */
  tokenMarketId: bigint;
}

function factoryOf(config: Pick<Config, "CHAIN_ID" | "deploymentFile">, outcomes: number): Address {
  const d = currentDeployment(config);
  const f = outcomes === 3 ? d.contracts.TernaryFactory : d.contracts.BinaryFactory;
  if (!f) throw new ApiError("SERVICE_UNAVAILABLE", `no ${outcomes === 3 ? "ternary" : "binary"} LMSR factory is deployed on chain ${config.CHAIN_ID}`);
  return f.address as Address;
}

const closeSeconds = (n: Negotiation) => BigInt(Math.floor(Date.parse(n.terms.deadlines.closeTime) / 1000));

export function onchainTransactions(config: Pick<Config, "CHAIN_ID" | "deploymentFile">, n: Negotiation) {
  const t = n.terms;
  const factory = factoryOf(config, t.outcomes.length);
  const seed = BigInt(t.seed ?? "0");
  return [
    {
      chainId: t.chainId,
      to: t.collateral.token!.toLowerCase(),
      data: encodeFunctionData({ abi: testUSDCAbi, functionName: "approve", args: [factory, seed] }),
      value: "0" as const,
      description: `approve the factory for the seed: ${seed} units of ${t.collateral.symbol}`,
    },
    {
      chainId: t.chainId,
      to: factory.toLowerCase(),
      data: encodeFunctionData({
        abi: lmsrFactoryAbi,
        functionName: "createMarket",
        args: [t.collateral.token as Address, seed, closeSeconds(n), n.termsHash, t.title],
      }),
      value: "0" as const,
      description: "create the market (the factory pulls the seed and stamps its fee defaults)",
    },
  ];
}

const mismatch = (reason: string, detail: string) => new ApiError("DEPLOY_RECEIPT_MISMATCH", detail, { reason, field: "txHash" });

export async function verifyCreation(config: Pick<Config, "CHAIN_ID" | "rpcUrl" | "deploymentFile">, n: Negotiation, txHash: Hex): Promise<VerifiedCreation> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) throw new ApiError("INVALID_PAYLOAD", "txHash must be 0x + 64 hex digits", { field: "txHash" });
  const t = n.terms;
  const factory = factoryOf(config, t.outcomes.length).toLowerCase();
  const client = createPublicClient({ chain: rpcChain(config.CHAIN_ID, config.rpcUrl), transport: http(config.rpcUrl, { retryCount: 1 }) });
  const receipt = await client.getTransactionReceipt({ hash: txHash }).catch(() => null);
  if (!receipt)
    throw mismatch("not_found", `no mined transaction ${txHash} on chain ${config.CHAIN_ID}; send the prepared transaction and retry once it is mined`);
  if (receipt.status !== "success") throw mismatch("reverted", `transaction ${txHash} reverted`);
  const events = parseEventLogs({ abi: lmsrFactoryAbi, eventName: "MarketCreated", logs: receipt.logs.filter((l) => l.address.toLowerCase() === factory) });
  const e = events[0]?.args;
  if (!e) throw mismatch("no_event", `transaction ${txHash} has no MarketCreated of the ${t.outcomes.length}-outcome factory ${factory}`);
  const checks: [string, boolean, string][] = [
    ["terms_hash", e.termsHash.toLowerCase() === n.termsHash.toLowerCase(), `termsHash ${e.termsHash} is not this negotiation's ${n.termsHash}`],
    ["creator", e.creator.toLowerCase() === n.creator.toLowerCase(), `the market was created by ${e.creator}, not by ${n.creator}`],
    ["collateral", e.collateral.toLowerCase() === (t.collateral.token ?? "").toLowerCase(), `collateral ${e.collateral} is not ${t.collateral.token}`],
    ["seed", e.seed === BigInt(t.seed ?? "0"), `seed ${e.seed} is not ${t.seed}`],
    ["close_time", e.closeTime === closeSeconds(n), `closeTime ${e.closeTime} is not ${closeSeconds(n)}`],
    ["question", e.question === t.title, "the question is not the terms' title"],
    ["outcomes", e.outcomeCount === t.outcomes.length, `outcomeCount ${e.outcomeCount} is not ${t.outcomes.length}`],
    [
      "fees",
      e.sellExitFeeBps === t.fees.sellExitFeeBps && e.winningsExitFeeBps === t.fees.winningsExitFeeBps,
      "the stamped exit fees differ from the terms' (the factory defaults changed): propose again",
    ],
  ];
  const bad = checks.find(([, ok]) => !ok);
  if (bad) throw mismatch(bad[0], bad[2]);
  return { txHash: txHash.toLowerCase(), market: e.market.toLowerCase(), tokenMarketId: e.marketId };
}

/**
 * Lists the verified on-chain market with its negotiated metadata and engine id. The catalog sync may have listed
 * the contract first from the projection (a row without externalId): the row then takes the negotiated fields.
 */
export async function listOnchainMarket(db: SqlRunner, m: Omit<NewCatalogMarket, "settlement">): Promise<CatalogMarket> {
  try {
    return (await insertCatalogMarket(db, { ...m, settlement: "onchain" })).market;
  } catch (err) {
    if ((err as { code?: unknown }).code !== "23505") throw err;
    await db.query(
      `UPDATE markets SET market_id = $3, external_id = $4, title = $5, description = $6, category = $7, outcomes = $8::text::jsonb, resolution_source = $9::text::jsonb, creator = $10
       WHERE chain_id = $1 AND address = $2 AND settlement = 'onchain'`,
      [
        m.chainId,
        m.address!.toLowerCase(),
        m.marketId!.toString(),
        m.externalId,
        m.title,
        m.description,
        m.category,
        JSON.stringify(m.outcomes),
        JSON.stringify(m.resolutionSource),
        m.creator,
      ],
    );
    const row = await loadMarket(db, m.chainId, m.address!, m.createdAt);
    if (!row) throw err;
    return row;
  }
}
