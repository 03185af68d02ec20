import type { Address, Hex } from "viem";
import { normalizeAccount } from "../assets";
import type { LedgerState } from "./state";

/** One leaf of an account with its proof against `root`. */
export interface AccountProofLeaf {
  readonly assetId: bigint;
  readonly balance: bigint;
  readonly leaf: Hex;
  readonly proof: Hex[];
}

/** Everything `GET /api/v1/ledger/proof/{account}` returns: every non-zero balance of the account, each provable. */
export interface AccountProof {
  readonly account: Address;
  readonly root: Hex;
  readonly leaves: AccountProofLeaf[];
}

/**
 * Proofs for all of an account's non-zero balances against the current root. Each proof verifies with
 * OpenZeppelin `MerkleProof.verify(proof, root, leaf)`. An account with no balance gets an empty list.
 */
export async function accountProof(state: LedgerState, account: Address): Promise<AccountProof> {
  const key = normalizeAccount(account);
  const root = await state.root();
  const leaves: AccountProofLeaf[] = [];
  for (const entry of state.accountEntries(key)) {
    const p = await state.proof(key, entry.assetId);
    if (p) leaves.push({ assetId: entry.assetId, balance: entry.balance, leaf: p.leaf, proof: p.proof });
  }
  return { account: key, root, leaves };
}
