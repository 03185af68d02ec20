/**
 * The x402 `exact` scheme on EVM with EIP-3009 (transferWithAuthorization): the requirements a resource answers with
 * and the payload a client signs. Field names and the EIP-712 typed data are the protocol's (@x402/evm), so any x402
 * client pays us unchanged.
 */
import { getAddress, type Address, type Hex } from "viem";
import { z } from "zod";
import type { PaymentRequirements } from "@x402/core/types";

/** How long a client has to sign and send after the 402 (it sets validBefore from it). */
export const MAX_TIMEOUT_SECONDS = 300;

/** The EIP-712 message of EIP-3009 (Circle's FiatToken, our TestUSDC). */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

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

/** The authorization's arguments as the token takes them. */
export function authorizationArgs(p: ExactEip3009Payload) {
  const a = p.authorization;
  return [getAddress(a.from), getAddress(a.to), BigInt(a.value), BigInt(a.validAfter), BigInt(a.validBefore), a.nonce as Hex, p.signature as Hex] as const;
}
