/**
 * The x402 facilitator seam: `verify` a payment against its requirements, then `settle` it on chain. The shape is the
 * verify/settle half of @x402/core's FacilitatorClient, so a hosted facilitator (HTTPFacilitatorClient) can replace
 * the local one without touching the purchase flow.
 *
 * LocalFacilitator is the service acting as its own facilitator (no internet on the local stack). The EIP-3009 work,
 * checking the authorization (signature, payee, amount, validity window, a simulated transfer) and sending
 * `transferWithAuthorization`, is @x402/evm's `ExactEvmScheme`. Around it, what the purchase flow needs:
 *   - the payment must accept the requirements we answered with (asset, payee, amount), as a resource server checks;
 *   - settlements go out one at a time from the facilitator key, so its nonces never collide;
 *   - `settle` is idempotent per authorization: when the nonce is already used on chain, the earlier transfer
 *     (AuthorizationUsed, with a Transfer of exactly the authorized value to the payee) is the settlement, so a retry
 *     after a crash never pays twice;
 *   - a settlement that may have reached the chain (sent, but no receipt seen) throws instead of answering "refused",
 *     so the purchase keeps its claim and a retry finds the transfer.
 * Reasons are the protocol's `invalid_exact_evm_*` strings.
 */
import { getAddress, parseEventLogs, type Address, type Hex, type PublicClient, type WalletClient } from "viem";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types";
import { testUSDCAbi } from "../../../../generated/abis";
import { exactEip3009PayloadSchema, type ExactEip3009Payload } from "./exact-evm";
import { facilitatorSigner } from "./signer";

export interface Facilitator {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

export interface LocalFacilitatorOptions {
  client: PublicClient;
  /** Submits the settlement; its account pays the gas. */
  wallet: WalletClient;
  /** First block to search for an earlier settlement of the same authorization (the token's deployment block). */
  fromBlock: bigint;
}

/** @x402/evm's reason for a settlement sent but not confirmed (the receipt wait ended first). */
const SETTLEMENT_PENDING = "settlement_pending";

type Parsed = { ok: true; p: ExactEip3009Payload } | { ok: false; reason: string; message: string };

function parsePayload(payload: PaymentPayload): Parsed {
  const r = exactEip3009PayloadSchema.safeParse(payload.payload);
  return r.success
    ? { ok: true, p: r.data }
    : {
        ok: false,
        reason: "invalid_exact_evm_failed_to_parse_signature",
        message: "payload must be {signature, authorization{from,to,value,validAfter,validBefore,nonce}}",
      };
}

export class LocalFacilitator implements Facilitator {
  readonly #scheme: ExactEvmScheme;
  /** One settlement at a time: the facilitator key's nonces never collide. */
  #sending: Promise<unknown> = Promise.resolve();
  /** Set by the signer when a send of the running settlement failed after it may have gone out. */
  #unknownBroadcast: unknown = null;

  constructor(private readonly o: LocalFacilitatorOptions) {
    this.#scheme = new ExactEvmScheme(facilitatorSigner(o.client, o.wallet, (err) => (this.#unknownBroadcast = err)));
  }

  async verify(payload: PaymentPayload, req: PaymentRequirements): Promise<VerifyResponse> {
    const parsed = parsePayload(payload);
    if (!parsed.ok) return { isValid: false, invalidReason: parsed.reason, invalidMessage: parsed.message };
    const payer = getAddress(parsed.p.authorization.from);
    const no = (invalidReason: string, invalidMessage: string): VerifyResponse => ({ isValid: false, invalidReason, invalidMessage, payer });
    const acc = payload.accepted;
    if (!sameAddress(acc.asset, req.asset)) return no("invalid_exact_evm_asset_mismatch", `asset must be ${req.asset}`);
    if (!sameAddress(acc.payTo, req.payTo)) return no("invalid_exact_evm_recipient_mismatch", `payTo must be ${req.payTo}`);
    if (acc.amount !== req.amount) return no("invalid_exact_evm_authorization_value", `amount must be exactly ${req.amount}`);
    const verdict = await this.#scheme.verify(payload, req);
    return verdict.isValid ? { isValid: true, payer } : { ...verdict, payer };
  }

  /** Settles once per authorization (see the header); throws when the transfer may have happened unseen. */
  async settle(payload: PaymentPayload, req: PaymentRequirements): Promise<SettleResponse> {
    const parsed = parsePayload(payload);
    if (!parsed.ok) return { success: false, errorReason: parsed.reason, errorMessage: parsed.message, transaction: "", network: req.network };
    const p = parsed.p;
    const payer = getAddress(p.authorization.from);
    const token = getAddress(req.asset);
    const fail = (errorReason: string, errorMessage?: string): SettleResponse => ({
      success: false,
      errorReason,
      ...(errorMessage ? { errorMessage } : {}),
      payer,
      transaction: "",
      network: req.network,
    });
    const done = (transaction: Hex): SettleResponse => ({ success: true, payer, transaction, network: req.network, amount: p.authorization.value });
    const run = this.#sending.then(async () => {
      const used = await this.o.client.readContract({
        address: token,
        abi: testUSDCAbi,
        functionName: "authorizationState",
        args: [payer, p.authorization.nonce as Hex],
      });
      if (used) {
        const earlier = await this.#earlierSettlement(token, payer, p);
        return earlier ? done(earlier) : fail("invalid_exact_evm_nonce_already_used", "the authorization was cancelled or used for another transfer");
      }
      this.#unknownBroadcast = null;
      const settled = await this.#scheme.settle(payload, req);
      if (settled.success) return done(settled.transaction as Hex);
      if (settled.errorReason === SETTLEMENT_PENDING || this.#unknownBroadcast) {
        throw new Error(`settlement not confirmed: ${settled.errorMessage ?? settled.errorReason}`, { cause: this.#unknownBroadcast ?? undefined });
      }
      return fail(settled.errorReason ?? "invalid_exact_evm_transaction_failed", settled.errorMessage);
    });
    this.#sending = run.catch(() => undefined);
    return run;
  }

  /** The transaction that used this authorization, if it moved exactly the authorized value to the payee. */
  async #earlierSettlement(token: Address, payer: Address, p: ExactEip3009Payload): Promise<Hex | null> {
    const logs = await this.o.client.getContractEvents({
      address: token,
      abi: testUSDCAbi,
      eventName: "AuthorizationUsed",
      args: { authorizer: payer, nonce: p.authorization.nonce as Hex },
      fromBlock: this.o.fromBlock,
    });
    const hash = logs[0]?.transactionHash;
    if (!hash) return null;
    const receipt = await this.o.client.getTransactionReceipt({ hash });
    const moved = parseEventLogs({ abi: testUSDCAbi, eventName: "Transfer", logs: receipt.logs }).some(
      (l) =>
        sameAddress(l.address, token) &&
        sameAddress(l.args.from, payer) &&
        sameAddress(l.args.to, p.authorization.to) &&
        l.args.value === BigInt(p.authorization.value),
    );
    return moved ? hash : null;
  }
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
