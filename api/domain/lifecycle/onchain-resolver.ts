/**
 * The on-chain lane's resolver (docs/resolution.md "On-chain lane"): when the protocol makes an on-chain market final
 * (its MARKET_STATE resolved / void in the journal), the service's resolver account (the operator key, which holds the
 * factory's RESOLVER_ROLE) calls `resolve(outcome)` or `voidMarket()` on the market's LmsrMarket. Each action is a row
 * of lifecycle_resolver_actions, retried until its receipt is recorded; a contract already settled counts as done,
 * so the action is idempotent across retries and restarts. The same wallet submits `withdrawSurplus()` for sweeps.
 */
import { createPublicClient, createWalletClient, http, parseEventLogs, type Address, type Hex } from "viem";
import { lmsrMarketAbi } from "../../../generated/abis";
import { rpcChain } from "../../../relayer/rpc-chain";
import { sendingAccount, type SendingAccount } from "../../../relayer/sending-account";
import type { ServiceContext } from "../../context";
import type { LifecycleRow } from "./journal-projection";

const RETRY_MS = 5_000;

export class OnchainResolver {
  #conn: { client: ReturnType<typeof createPublicClient>; wallet: ReturnType<typeof createWalletClient>; operator: SendingAccount } | null = null;
  #sends: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #closed = false;

  constructor(private readonly ctx: ServiceContext) {}

  private conn() {
    if (!this.#conn) {
      const { config } = this.ctx;
      const chain = rpcChain(config.CHAIN_ID, config.rpcUrl);
      const transport = http(config.rpcUrl, { timeout: 10_000 });
      const operator = sendingAccount(config.OPERATOR_PRIVATE_KEY as Hex);
      this.#conn = {
        client: createPublicClient({ chain, transport }),
        wallet: createWalletClient({ chain, transport, account: operator.account }),
        operator,
      };
    }
    return this.#conn;
  }

  /**
   * Sends one call with the operator key and waits for its receipt. The resolver's calls run one after the other; the
   * send itself also takes its turn among the process's other sends from the key (the batcher's, the trade relay's).
   */
  async send(
    market: Address,
    functionName: "resolve" | "voidMarket" | "withdrawSurplus",
    args: readonly unknown[] = [],
  ): Promise<{ txHash: Hex; blockNumber: bigint; status: "success" | "reverted" }> {
    const run = async () => {
      const { client, wallet, operator } = this.conn();
      // The three calls share one path; viem's overloads are per function, so the request is typed loosely once.
      const request = { address: market, abi: lmsrMarketAbi, functionName, args, chain: wallet.chain, account: wallet.account! };
      const txHash = await operator.inTurn(() => wallet.writeContract(request as unknown as Parameters<typeof wallet.writeContract>[0]));
      const receipt = await client.waitForTransactionReceipt({ hash: txHash });
      return { txHash, blockNumber: receipt.blockNumber, status: receipt.status };
    };
    const next = this.#sends.then(run, run);
    this.#sends = next.catch(() => undefined);
    return next;
  }

  /** The amount a withdrawSurplus transaction sent the creator (its SurplusWithdrawn event; 0 when none). */
  async receiptSurplus(txHash: Hex): Promise<bigint> {
    const receipt = await this.conn().client.getTransactionReceipt({ hash: txHash });
    const logs = parseEventLogs({ abi: lmsrMarketAbi, logs: receipt.logs, eventName: "SurplusWithdrawn" });
    return logs.reduce((s, l) => s + (l.args as { amount: bigint }).amount, 0n);
  }

  /** The contract's settlement state: 0 open, 1 resolved, 2 voided. */
  async contractState(market: Address): Promise<number> {
    return Number(await this.conn().client.readContract({ address: market, abi: lmsrMarketAbi, functionName: "state" }));
  }

  /** Records the resolver actions owed by projected MARKET_STATE rows of on-chain markets, then works them off. */
  async onRows(rows: LifecycleRow[]): Promise<void> {
    const finals = rows.filter((r) => r.kind === "MARKET_STATE" && (r.state === "resolved" || r.state === "void"));
    if (finals.length === 0) return;
    const { db, config, clock } = this.ctx;
    for (const r of finals) {
      const [m] = await db.query<{ address: string }>(`SELECT address FROM markets WHERE chain_id = $1 AND market_id = $2 AND settlement = 'onchain'`, [
        config.CHAIN_ID,
        r.marketId.toString(),
      ]);
      if (!m) continue;
      const method = r.state === "resolved" ? "resolve" : "voidMarket";
      await db.query(
        `INSERT INTO lifecycle_resolver_actions (market_id, chain_id, market_address, method, outcome, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6, $6) ON CONFLICT (market_id) DO NOTHING`,
        [r.marketId.toString(), config.CHAIN_ID, m.address, method, method === "resolve" ? r.side : null, clock.now()],
      );
    }
    await this.work();
  }

  /** Works off every pending action; a failure is recorded and retried later. */
  work(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#running ??= this.#work().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #work(): Promise<void> {
    const { db, clock, log } = this.ctx;
    const due = await db.query<{ market_id: string; market_address: string; method: "resolve" | "voidMarket"; outcome: number | null }>(
      `SELECT market_id::text, market_address, method, outcome FROM lifecycle_resolver_actions WHERE status <> 'confirmed' ORDER BY market_id`,
    );
    let failed = false;
    for (const a of due) {
      const market = a.market_address as Address;
      try {
        const state = await this.contractState(market);
        if (state !== 0) {
          await db.query(`UPDATE lifecycle_resolver_actions SET status = 'confirmed', updated_at = $2 WHERE market_id = $1`, [a.market_id, clock.now()]);
          continue;
        }
        await db.query(`UPDATE lifecycle_resolver_actions SET status = 'sent', attempts = attempts + 1, updated_at = $2 WHERE market_id = $1`, [
          a.market_id,
          clock.now(),
        ]);
        const r = await this.send(market, a.method, a.method === "resolve" ? [a.outcome ?? 0] : []);
        if (r.status !== "success") throw new Error(`${a.method} reverted in ${r.txHash}`);
        await db.query(
          `UPDATE lifecycle_resolver_actions SET status = 'confirmed', tx_hash = $2, block_number = $3, error = NULL, updated_at = $4 WHERE market_id = $1`,
          [a.market_id, r.txHash, r.blockNumber.toString(), clock.now()],
        );
      } catch (err) {
        failed = true;
        log.warn({ err, market }, "on-chain resolver action failed; retrying");
        await db.query(`UPDATE lifecycle_resolver_actions SET status = 'pending', error = $2, updated_at = $3 WHERE market_id = $1`, [
          a.market_id,
          (err as Error).message.slice(0, 500),
          clock.now(),
        ]);
      }
    }
    if (failed && !this.#closed && !this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.work().catch(() => undefined);
      }, RETRY_MS);
      this.#timer.unref();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    // A run's failure was the caller's to report (work().catch); closing must not fail on it.
    await this.#running?.catch(() => {});
  }
}
