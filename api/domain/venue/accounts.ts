/**
 * Engine accounts of agents. An agent's account is opened in the engine the first time it trades or reads its venue
 * state: `openAccount` at its signup instant (the fill allowance's seven-day periods are anchored there), then the
 * starting PM grant (credit reason GRANT). Both are journaled commands, committed together, so the grant happens once
 * per account for the life of the journal: after a restart the rebuilt engine already knows the account.
 */
import type { Address } from "viem";
import type { Exchange } from "../../../relayer/exchange/exchange";
import { CommitUnit } from "../../../relayer/db/group-commit";
import { ApiError } from "../../platform/errors/api-error";
import { accepted } from "../../platform/errors/engine-rejection";

export class AccountOpener {
  readonly #opening = new Map<string, Promise<void>>();
  /** Accounts known to be open (the journal never closes one, so this only grows). */
  readonly #open_ = new Set<string>();

  constructor(
    private readonly exchange: Exchange,
    private readonly startingGrant: bigint,
  ) {}

  /** Opens `account` (lower-case) once; concurrent callers for one account share the same opening. */
  async ensure(account: Address, signupAt: number): Promise<Address> {
    if (this.#open_.has(account)) return account;
    // An opening in flight first: the engine knows the account from its openAccount on, before its grant is durable.
    let opening = this.#opening.get(account);
    if (!opening) {
      if (this.#known(account)) {
        this.#open_.add(account);
        return account;
      }
      opening = this.#open(account, signupAt).finally(() => this.#opening.delete(account));
      this.#opening.set(account, opening);
    }
    await opening;
    this.#open_.add(account);
    return account;
  }

  #known(account: Address): boolean {
    return this.exchange.engine.accounts().includes(account);
  }

  /**
   * The opening and the grant in one commit unit: durable together, so no crash leaves an account that was opened and
   * will never be granted (the engine would know it, and no later call would grant it).
   */
  async #open(account: Address, signupAt: number): Promise<void> {
    if (this.#known(account)) return;
    const unit = new CommitUnit();
    try {
      accepted(await this.exchange.submit({ type: "openAccount", account, signupAt }, { unit }));
      if (this.startingGrant > 0n) accepted(await this.exchange.submit({ type: "credit", account, amount: this.startingGrant, reason: "GRANT" }, { unit }));
    } finally {
      // Sealed whatever happened: an unsealed unit holds back every tick queued behind it.
      await unit.seal().catch((err: unknown) => {
        throw new ApiError("SERVICE_UNAVAILABLE", `the account could not be opened durably: ${(err as Error).message}`, {}, { "Retry-After": "1" });
      });
    }
  }
}
