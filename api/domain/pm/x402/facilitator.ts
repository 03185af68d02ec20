/**
 * The x402 facilitator seam: `verify` a payment against its requirements, then `settle` it on chain. The shape is the
 * verify/settle half of @x402/core's FacilitatorClient, so a hosted facilitator (HTTPFacilitatorClient) can replace
 * the local one without touching the purchase flow.
 *
 * LocalFacilitator is the service acting as its own facilitator (no internet on the local stack): it checks the
 * EIP-3009 authorization with viem and submits transferWithAuthorization itself with its own key, paying the gas.
 * Reasons are the protocol's `invalid_exact_evm_*` strings.
 */
import { getAddress, parseEventLogs, verifyTypedData, type Address, type Hex, type PublicClient, type WalletClient } from "viem";
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from "@x402/core/types";
import type { Clock } from "../../../../relayer/clock";
import { testUSDCAbi } from "../../../../generated/abis";
import { authorizationArgs, exactEip3009PayloadSchema, TRANSFER_WITH_AUTHORIZATION_TYPES, type ExactEip3009Payload } from "./exact-evm";

export interface Facilitator {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

/** validBefore must leave this much time to get the transaction mined (the reference facilitator uses 6 s). */
const MIN_VALIDITY_LEFT_SECONDS = 6n;

export interface LocalFacilitatorOptions {
  client: PublicClient;
  /** Submits the settlement; its account pays the gas. */
  wallet: WalletClient;
  clock: Clock;
  /** First block to search for an earlier settlement of the same authorization (the token's deployment block). */
  fromBlock: bigint;
}

type Parsed = { ok: true; p: ExactEip3009Payload } | { ok: false; reason: string; message: string };

function parsePayload(payload: PaymentPayload): Parsed {
  const r = exactEip3009PayloadSchema.safeParse(payload.payload);
  return r.success ? { ok: true, p: r.data } : { ok: false, reason: "invalid_exact_evm_failed_to_parse_signature", message: "payload must be {signature, authorization{from,to,value,validAfter,validBefore,nonce}}" };
}

export class LocalFacilitator implements Facilitator {
  /** One settlement at a time: the facilitator key's nonces never collide. */
  #sending: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: LocalFacilitatorOptions) {}

  async verify(payload: PaymentPayload, req: PaymentRequirements): Promise<VerifyResponse> {
    const parsed = parsePayload(payload);
    if (!parsed.ok) return { isValid: false, invalidReason: parsed.reason, invalidMessage: parsed.message };
    const a = parsed.p.authorization;
    const payer = getAddress(a.from);
    const no = (invalidReason: string, invalidMessage: string): VerifyResponse => ({ isValid: false, invalidReason, invalidMessage, payer });
    const acc = payload.accepted;
    if (acc.scheme !== "exact" || req.scheme !== "exact") return no("invalid_exact_evm_scheme", "only the exact scheme is accepted");
    if (acc.network !== req.network) return no("invalid_exact_evm_network_mismatch", `network must be ${req.network}`);
    if (!sameAddress(acc.asset, req.asset)) return no("invalid_exact_evm_asset_mismatch", `asset must be ${req.asset}`);
    if (!sameAddress(a.to, req.payTo) || !sameAddress(acc.payTo, req.payTo)) return no("invalid_exact_evm_recipient_mismatch", `payTo must be ${req.payTo}`);
    if (BigInt(a.value) !== BigInt(req.amount) || acc.amount !== req.amount) return no("invalid_exact_evm_authorization_value", `value must be exactly ${req.amount}`);
    const now = BigInt(Math.floor(this.o.clock.now() / 1000));
    if (BigInt(a.validBefore) < now + MIN_VALIDITY_LEFT_SECONDS) return no("invalid_exact_evm_payload_authorization_valid_before", `the authorization expires at ${a.validBefore} (now ${now})`);
    if (BigInt(a.validAfter) > now) return no("invalid_exact_evm_payload_authorization_valid_after", `the authorization is valid only after ${a.validAfter} (now ${now})`);
    const { name, version } = (req.extra ?? {}) as { name?: string; version?: string };
    const chainId = Number(req.network.split(":")[1]);
    let signed = false;
    try {
      signed = await verifyTypedData({
        address: payer,
        domain: { name, version, chainId, verifyingContract: getAddress(req.asset) },
        types: TRANSFER_WITH_AUTHORIZATION_TYPES,
        primaryType: "TransferWithAuthorization",
        message: { from: payer, to: getAddress(a.to), value: BigInt(a.value), validAfter: BigInt(a.validAfter), validBefore: BigInt(a.validBefore), nonce: a.nonce as Hex },
        signature: parsed.p.signature as Hex,
      });
    } catch {
      signed = false;
    }
    if (!signed) return no("invalid_exact_evm_signature", "the signature is not the payer's EIP-712 TransferWithAuthorization signature");
    const token = getAddress(req.asset);
    const used = await this.o.client.readContract({ address: token, abi: testUSDCAbi, functionName: "authorizationState", args: [payer, a.nonce as Hex] });
    if (used) return no("invalid_exact_evm_nonce_already_used", `nonce ${a.nonce} of ${payer} was already used or cancelled`);
    const balance = await this.o.client.readContract({ address: token, abi: testUSDCAbi, functionName: "balanceOf", args: [payer] });
    if (balance < BigInt(a.value)) return no("invalid_exact_evm_insufficient_balance", `${payer} holds ${balance}, needs ${a.value}`);
    return { isValid: true, payer };
  }

  /**
   * Submits transferWithAuthorization and waits for the receipt. Idempotent per authorization: when the nonce is
   * already used on chain, the earlier transfer (AuthorizationUsed log) is the settlement, so a retry after a crash
   * never pays twice.
   */
  async settle(payload: PaymentPayload, req: PaymentRequirements): Promise<SettleResponse> {
    const parsed = parsePayload(payload);
    if (!parsed.ok) return { success: false, errorReason: parsed.reason, errorMessage: parsed.message, transaction: "", network: req.network };
    const p = parsed.p;
    const payer = getAddress(p.authorization.from);
    const token = getAddress(req.asset);
    const fail = (errorReason: string, errorMessage: string): SettleResponse => ({ success: false, errorReason, errorMessage, payer, transaction: "", network: req.network });
    const done = (transaction: Hex): SettleResponse => ({ success: true, payer, transaction, network: req.network, amount: p.authorization.value });
    const run = this.#sending.then(async () => {
      const used = await this.o.client.readContract({ address: token, abi: testUSDCAbi, functionName: "authorizationState", args: [payer, p.authorization.nonce as Hex] });
      if (used) {
        const earlier = await this.#earlierSettlement(token, payer, p);
        return earlier ? done(earlier) : fail("invalid_exact_evm_nonce_already_used", "the authorization was cancelled or used for another transfer");
      }
      const account = this.o.wallet.account!;
      let request;
      try {
        ({ request } = await this.o.client.simulateContract({ address: token, abi: testUSDCAbi, functionName: "transferWithAuthorization", args: authorizationArgs(p), account }));
      } catch (err) {
        return fail("invalid_exact_evm_transaction_simulation_failed", shortMessage(err));
      }
      const hash = await this.o.wallet.writeContract({ ...request, chain: this.o.wallet.chain });
      const receipt = await this.o.client.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") return fail("invalid_exact_evm_transaction_failed", `transaction ${hash} reverted`);
      return done(hash);
    });
    this.#sending = run.catch(() => undefined);
    return run;
  }

  /** The transaction that used this authorization, if it moved exactly the authorized value to the payee. */
  async #earlierSettlement(token: Address, payer: Address, p: ExactEip3009Payload): Promise<Hex | null> {
    const logs = await this.o.client.getContractEvents({ address: token, abi: testUSDCAbi, eventName: "AuthorizationUsed", args: { authorizer: payer, nonce: p.authorization.nonce as Hex }, fromBlock: this.o.fromBlock });
    const hash = logs[0]?.transactionHash;
    if (!hash) return null;
    const receipt = await this.o.client.getTransactionReceipt({ hash });
    const moved = parseEventLogs({ abi: testUSDCAbi, eventName: "Transfer", logs: receipt.logs }).some(
      (l) => sameAddress(l.address, token) && sameAddress(l.args.from, payer) && sameAddress(l.args.to, p.authorization.to) && l.args.value === BigInt(p.authorization.value),
    );
    return moved ? hash : null;
  }
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function shortMessage(err: unknown): string {
  return (err as { shortMessage?: string }).shortMessage ?? (err as Error).message ?? String(err);
}
