/**
 * `GET /api/v1/ledger/proof/{account}` on the service host (outside /api/agent/v1): every non-zero balance of the
 * account in the published ledger, each with its Merkle proof, and the root they verify against — the contract's
 * `ledgerRoot()` at `batchNonce`. Check one with `CommittedLedger.verifyBalance(account, assetId, balance, proof)`.
 */
import type { Hono } from "hono";
import { isAddress, type Address } from "viem";
import { ApiError } from "../../platform/errors/api-error";
import type { PublishedLedger } from "./published-ledger";

export const LEDGER_PROOF_PATH = "/api/v1/ledger/proof/:account";

export function mountLedgerProof(app: Hono, ledger: () => PublishedLedger | null): void {
  app.get(LEDGER_PROOF_PATH, async (c) => {
    const account = c.req.param("account");
    if (!isAddress(account, { strict: false })) {
      throw new ApiError("INVALID_PAYLOAD", `account must be an address (0x + 40 hex digits), got ${JSON.stringify(account)}`, { field: "account" });
    }
    const published = ledger();
    if (!published) throw new ApiError("SERVICE_UNAVAILABLE", "no CommittedLedger is deployed on this service's chain yet");
    const p = await published.proofOf(account as Address);
    return c.json({
      account: p.account,
      chainId: p.chainId,
      ledger: p.ledger,
      batchNonce: p.batchNonce.toString(),
      root: p.root,
      leaves: p.leaves.map((l) => ({ assetId: l.assetId.toString(), balance: l.balance.toString(), leaf: l.leaf, proof: l.proof })),
    });
  });
}
