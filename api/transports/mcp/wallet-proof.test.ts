import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { openTestDatabase } from "../../../test/support/db";
import type { Database } from "../../../relayer/db/client";
import type { KeyPrincipal } from "../../domain/auth/principal";
import { ApiError } from "../../platform/errors/api-error";
import { payloadHash } from "../../platform/hashing/canonical-json";
import { defineOperation, type AnyOperation } from "../../registry/types";
import { issueNonce } from "../../domain/auth/wallet-proof/nonces";
import { challengeOf, mcpProofMessage, verifyMcpWalletProof } from "./wallet-proof";

const NOW = 1_800_000_000_000;
const TS = NOW / 1000;
const account = privateKeyToAccount(generatePrivateKey());

const base = {
  category: "t",
  permission: "api-key-execute",
  tier: "execute",
  rateClass: "write",
  charged: true,
  idempotency: "required",
  response: z.object({}),
  walletProof: true,
  handler: async () => ({}),
} as const;
const cancel: AnyOperation = defineOperation({
  ...base,
  id: "cancel",
  method: "POST",
  path: "/orders/{orderId}/cancel",
  summary: "c",
  scopes: ["trade:execute"],
  request: { params: z.object({ orderId: z.string() }), body: z.object({ reason: z.string().optional() }) },
  mcpTool: "svc_cancel",
});
const bare: AnyOperation = defineOperation({ ...base, id: "bare", method: "POST", path: "/bare", summary: "b", scopes: [], request: {}, mcpTool: "svc_bare" });

function principal(wallet: string | null): KeyPrincipal {
  return {
    agentId: "11111111-2222-3333-4444-555555555555",
    keyId: "key_abc",
    name: "a",
    tier: "execute",
    scopes: ["trade:execute"],
    walletAddress: wallet,
    email: null,
    emailVerified: false,
    registrationPath: "wallet",
    rateTier: "ordinary",
    rateOverridden: false,
    expiresAt: null,
    createdAt: NOW,
  };
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (err) {
    if (err instanceof ApiError) return err.code;
    throw err;
  }
}

describe("svc-mcp-auth wallet proofs", () => {
  let db: Database;
  before(async () => {
    db = await openTestDatabase();
  });
  after(async () => {
    await db.close();
  });

  it("builds the challenge in the spec's field order, optional fields as '-'", () => {
    const msg = mcpProofMessage({
      agentId: "A",
      apiKeyId: "K",
      tool: "svc_bare",
      scope: null,
      chainId: 8453,
      walletAddress: "0xABCDEFabcdef0000000000000000000000000001",
      resourceId: undefined,
      payloadHash: payloadHash(null),
      nonce: "n1",
      timestamp: 17,
    });
    assert.equal(msg, `svc-mcp-auth:A:K:svc_bare:-:8453:0xabcdefabcdef0000000000000000000000000001:-:${payloadHash({})}:n1:17`);
    const c = challengeOf(
      cancel,
      principal(null),
      { orderId: "o-9", reason: "x", walletSignature: "s", proofNonce: "n", signatureTimestamp: 1, idempotencyKey: "i" },
      8453,
      account.address,
      "n",
      1,
    );
    assert.equal(c.scope, "trade:execute");
    assert.equal(c.resourceId, "o-9");
    // The intent excludes the proof fields and the idempotency key.
    assert.equal(c.payloadHash, payloadHash({ orderId: "o-9", reason: "x" }));
  });

  it("accepts a real EIP-191 signature once, with the bound wallet implied, and spends the nonce", async () => {
    const { nonce } = await issueNonce(db, NOW);
    const args = { orderId: "o-1", reason: "stale", idempotencyKey: "k1" };
    const message = mcpProofMessage(challengeOf(cancel, principal(account.address), args, 8453, account.address, nonce, TS));
    const walletSignature = await account.signMessage({ message });
    const call = {
      op: cancel,
      principal: principal(account.address),
      args: { ...args, walletSignature, signatureTimestamp: TS, proofNonce: nonce },
      chainId: 8453,
      nowMs: NOW,
    };
    assert.equal(await verifyMcpWalletProof(db, call), account.address.toLowerCase());
    assert.equal(await code(verifyMcpWalletProof(db, call)), "WALLET_AUTH_INVALID");
    const [row] = await db.query<{ used_for: string }>(`SELECT used_for FROM api_nonces WHERE nonce = $1`, [nonce]);
    assert.equal(row.used_for, "mcp:svc_cancel");
  });

  it("refuses other chains, payloads, stale timestamps, foreign wallets and missing wallets", async () => {
    const { nonce } = await issueNonce(db, NOW);
    const args = { walletAddress: account.address, proofNonce: nonce };
    const sign = async (chainId: number, ts: number) =>
      account.signMessage({ message: mcpProofMessage(challengeOf(bare, principal(null), {}, chainId, account.address, nonce, ts)) });
    const run = (signature: string, ts: number, p = principal(null), extra: Record<string, unknown> = {}) =>
      code(
        verifyMcpWalletProof(db, {
          op: bare,
          principal: p,
          args: { ...args, ...extra, walletSignature: signature, signatureTimestamp: ts },
          chainId: 8453,
          nowMs: NOW,
        }),
      );
    assert.equal(await run(await sign(1, TS), TS), "WALLET_AUTH_INVALID");
    assert.equal(await run(await sign(8453, TS), TS, principal(null), { extra: 1 }), "WALLET_AUTH_INVALID");
    assert.equal(await run(await sign(8453, TS - 301), TS - 301), "WALLET_AUTH_INVALID");
    assert.equal(await run(await sign(8453, TS), TS, principal("0x000000000000000000000000000000000000dEaD")), "WALLET_ADDRESS_MISMATCH");
    assert.equal(
      await code(
        verifyMcpWalletProof(db, {
          op: bare,
          principal: principal(null),
          args: { walletSignature: "0x1", signatureTimestamp: TS, proofNonce: nonce },
          chainId: 8453,
          nowMs: NOW,
        }),
      ),
      "WALLET_REQUIRED",
    );
    assert.equal(
      await code(
        verifyMcpWalletProof(db, {
          op: bare,
          principal: principal(null),
          args: { walletAddress: account.address, signatureTimestamp: TS, proofNonce: nonce },
          chainId: 8453,
          nowMs: NOW,
        }),
      ),
      "INVALID_PAYLOAD",
    );
    // None of the failures spent the nonce: the right proof still passes within the window (300 s edge included).
    assert.equal(await run(await sign(8453, TS + 300), TS + 300), "ok");
  });
});
