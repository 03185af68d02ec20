/**
 * The viem chain of an RPC we talk to: our local Hardhat chain (8453 standing in for Base), a fork, or a real chain.
 * Wallet clients need one to sign; everything about it but the id and the RPC is the same everywhere (ETH gas).
 */
import { defineChain, type Chain } from "viem";

export function rpcChain(id: number, rpcUrl: string): Chain {
  return defineChain({ id, name: `chain-${id}`, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
}
