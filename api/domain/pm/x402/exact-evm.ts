/**
 * The x402 `exact` scheme on EVM with EIP-3009 (transferWithAuthorization): the requirements a resource answers with
 * and the shape of the payload a client signs. Field names and the EIP-712 typed data are the protocol's (@x402/evm),
 * so any x402 client pays us unchanged; verifying and settling it is @x402/evm's too (./facilitator.ts).
 */
import { getAddress, type Address } from "viem";
import { z } from "zod";
import { authorizationTypes } from "@x402/evm";
import type { PaymentRequirements } from "@x402/core/types";

/** How long a client has to sign and send after the 402 (it sets validBefore from it). */
export const MAX_TIMEOUT_SECONDS = 300;

/** The EIP-712 message of EIP-3009 (Circle's FiatToken, our TestUSDC), as @x402/evm signs and checks it. */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = authorizationTypes;

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const uint = z.string().regex(/^\d{1,78}$/);

/** `payload` of an exact EVM EIP-3009 payment. */
export const exactEip3009PayloadSchema = z.object({
  signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
  authorization: z.object({
    from: address,
    to: address,
    value: uint,
    validAfter: uint,
    validBefore: uint,
    nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  }),
});
export type ExactEip3009Payload = z.infer<typeof exactEip3009PayloadSchema>;

export interface TokenDomain {
  name: string;
  version: string;
}

export const networkOf = (chainId: number): `eip155:${number}` => `eip155:${chainId}`;

/** The one way to pay an amount of `asset` to `payTo` on `chainId`. */
export function exactRequirements(p: { chainId: number; asset: Address; payTo: Address; amount: bigint; domain: TokenDomain }): PaymentRequirements {
  return {
    scheme: "exact",
    network: networkOf(p.chainId),
    asset: getAddress(p.asset),
    amount: p.amount.toString(),
    payTo: getAddress(p.payTo),
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { name: p.domain.name, version: p.domain.version, assetTransferMethod: "eip3009" },
  };
}
