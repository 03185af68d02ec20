/**
 * The facilitator's EVM signer for @x402/evm (`FacilitatorEvmSigner`) over our viem clients: reads and signature checks
 * through the public client, `transferWithAuthorization` sent with the facilitator key. Two things it adds:
 *
 * - The library calls the token's `(…, uint8 v, bytes32 r, bytes32 s)` form of EIP-3009 for an EOA signature. Our
 *   TestUSDC has only the `(…, bytes signature)` form (measured: "function selector was not recognized"); USDC's
 *   FiatToken v2.2 has both. So the signer passes such a call on in the bytes form, with the same 65-byte signature.
 * - A send is simulated first, so a revert is known before anything goes out. A send that fails after that may or
 *   may not have reached the chain: the signer reports it through `onUnknownBroadcast`, and the facilitator treats
 *   that settlement as not finished rather than refused (docs/pm-purchase.md "Failures and retries").
 */
import { serializeSignature, type Hex, type PublicClient, type WalletClient } from "viem";
import { toFacilitatorEvmSigner, type FacilitatorEvmSigner } from "@x402/evm";

type ContractCall = { address: Hex; abi: readonly unknown[]; functionName: string; args?: readonly unknown[] };

/** A `transferWithAuthorization(…, v, r, s)` call as `transferWithAuthorization(…, signature)`; any other call as is. */
export function bytesSignatureForm<C extends ContractCall>(call: C): C {
  if (call.functionName !== "transferWithAuthorization" || call.args?.length !== 9) return call;
  const [v, r, s] = call.args.slice(6) as [number | bigint, Hex, Hex];
  const n = BigInt(v);
  const signature = n < 27n ? serializeSignature({ r, s, yParity: Number(n) }) : serializeSignature({ r, s, v: n });
  return { ...call, args: [...call.args.slice(0, 6), signature] };
}

export function facilitatorSigner(client: PublicClient, wallet: WalletClient, onUnknownBroadcast: (err: unknown) => void): FacilitatorEvmSigner {
  const account = wallet.account;
  if (!account) throw new Error("facilitatorSigner: the wallet client needs an account");
  return toFacilitatorEvmSigner({
    address: account.address,
    readContract: (call) => client.readContract(bytesSignatureForm(call as ContractCall) as never),
    verifyTypedData: (args) => client.verifyTypedData(args as never),
    async writeContract(call) {
      const { request } = await client.simulateContract({ ...(bytesSignatureForm(call as ContractCall) as object), account } as never);
      try {
        return await wallet.writeContract({ ...request, chain: wallet.chain } as never);
      } catch (err) {
        onUnknownBroadcast(err);
        throw err;
      }
    },
    async sendTransaction(tx) {
      try {
        return await wallet.sendTransaction({ ...tx, account, chain: wallet.chain });
      } catch (err) {
        onUnknownBroadcast(err);
        throw err;
      }
    },
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
    getCode: (args) => client.getCode(args),
  });
}
