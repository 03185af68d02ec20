import { z } from "zod";
import { feedKey, SIGNATURE_HEADER } from "../../registry/changelog/signing";
import { defineOperation } from "../../registry/types";

/** GET /changelog/signing-key: the public key that verifies the change feed's X-Feed-Signature. */
export const getChangelogSigningKey = defineOperation({
  id: "getChangelogSigningKey",
  method: "GET",
  path: "/changelog/signing-key",
  summary: "Public Ed25519 key of the signed change feed",
  description:
    'The feed at /changelog.atom carries `X-Feed-Signature: keyid="…", alg="ed25519", sig="<base64>"`, a detached signature of its exact bytes. Verify it with this key (docs/versioning.md).',
  category: "meta",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.object({
    algorithm: z.literal("Ed25519"),
    keyId: z.string().describe("First 16 hex digits of SHA-256 of the raw public key"),
    publicKeyPem: z.string().describe("SPKI PEM"),
    publicKeyJwk: z.object({ kty: z.literal("OKP"), crv: z.literal("Ed25519"), x: z.string(), kid: z.string() }),
    signatureHeader: z.literal(SIGNATURE_HEADER),
    signs: z.string().describe("What the signature covers"),
  }),
  mcpTool: null,
  async handler(ctx) {
    const key = await feedKey(ctx.db, ctx.clock.now());
    const jwk = key.publicKey.export({ format: "jwk" }) as { x: string };
    return {
      algorithm: "Ed25519" as const,
      keyId: key.keyId,
      publicKeyPem: key.publicKey.export({ type: "spki", format: "pem" }).toString(),
      publicKeyJwk: { kty: "OKP" as const, crv: "Ed25519" as const, x: jwk.x, kid: key.keyId },
      signatureHeader: SIGNATURE_HEADER as typeof SIGNATURE_HEADER,
      signs: "the exact bytes of the GET /changelog.atom response body",
    };
  },
});
