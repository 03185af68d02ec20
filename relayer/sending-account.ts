/**
 * The account of a key that several parts of the service send transactions from (the operator key: the batcher, the
 * trade relay and the on-chain resolver), and the one queue of its sends in this process. (The x402 facilitator is
 * the only part that sends from the deployer key, and queues its own settlements.)
 *
 * Each of those parts sends on its own schedule. Two sends that overlap read the same pending nonce, and the second
 * fails with "nonce too low" (a relayed trade then failed for good). A nonce manager that hands out nonces ahead
 * does not help on our local chain: Hardhat's automining node refuses a transaction whose nonce is ahead of the
 * account's, so sends must reach the node in nonce order. `inTurn` runs a send (sign and hand to the node, not the
 * wait for its receipt) after every earlier send of the same key in this process was accepted or refused.
 *
 * Another process that holds the key (a second instance of the service) can still take a nonce between our read and
 * our send. A send the node refuses for its nonce never reached the chain, so `inTurn` runs it again (it reads the
 * nonce afresh), a few times, after a short random pause that breaks a lockstep with the other sender.
 */
import { BaseError, NonceTooLowError, type Hex } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";

export interface SendingAccount {
  account: PrivateKeyAccount;
  /**
   * Runs `send` once every earlier send of this key in the process has settled, again when the node refused it for
   * its nonce (at most NONCE_ATTEMPTS times in all); resolves or rejects as its last run does.
   */
  inTurn<T>(send: () => Promise<T>): Promise<T>;
}

/** The tail of each key's queue, by address (a handful of keys per process). */
const queues = new Map<string, Promise<unknown>>();

const NONCE_ATTEMPTS = 6;

const refusedForNonce = (err: unknown) => err instanceof BaseError && err.walk((e) => e instanceof NonceTooLowError) instanceof NonceTooLowError;

async function withNonceRetries<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (attempt >= NONCE_ATTEMPTS || !refusedForNonce(err)) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 25 * attempt));
    }
  }
}

export function sendingAccount(privateKey: Hex): SendingAccount {
  const account = privateKeyToAccount(privateKey);
  const key = account.address.toLowerCase();
  return {
    account,
    inTurn<T>(send: () => Promise<T>): Promise<T> {
      const run = (queues.get(key) ?? Promise.resolve()).then(() => withNonceRetries(send));
      queues.set(
        key,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}
