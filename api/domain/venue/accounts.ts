/**
 * Engine accounts of agents. An agent's account is opened in the engine the first time it trades or reads its venue
 * state: `openAccount` at its signup instant (the fill allowance's seven-day periods are anchored there), then the
 * starting PM grant (credit reason GRANT). Both are journaled commands, so the grant happens once per account for the
 * life of the journal: after a restart the rebuilt engine already knows the account.
 */
import type { Address } from "viem";
import type { Exchange } from "../../../relayer/exchange/exchange";
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
    if (this.#known(account)) {
      this.#open_.add(account);
      return account;
    }
    let opening = this.#opening.get(account);
    if (!opening) {
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

  async #open(account: Address, signupAt: number): Promise<void> {
    if (this.#known(account)) return;
    accepted(await this.exchange.submit({ type: "openAccount", account, signupAt }));
    if (this.startingGrant > 0n) accepted(await this.exchange.submit({ type: "credit", account, amount: this.startingGrant, reason: "GRANT" }));
  }
}
