/**
 * The registry types `call.principal` from the operation's permission. The type half is checked by `tsc` (each
 * `@ts-expect-error` must find an error); the run-time half is the rule the auth middleware and the REST adapter share.
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { z } from "zod";
import type { KeyPrincipal } from "../domain/auth/principal";
import { defineOperation, requiresKey, TRADE_EXECUTE_ACCESS, type Permission } from "./types";

const base = {
  method: "GET",
  summary: "test",
  category: "test",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.object({}),
  mcpTool: null,
} as const;

describe("call.principal follows the permission", () => {
  it("is a KeyPrincipal for key permissions and nullable otherwise", () => {
    const seen: (KeyPrincipal | null)[] = [];
    defineOperation({
      ...base,
      id: "keyRead",
      path: "/a",
      permission: "api-key-read",
      handler: async (_ctx, _input, call) => {
        seen.push(call.principal satisfies KeyPrincipal);
        return {};
      },
    });
    defineOperation({
      ...base,
      id: "keyExecute",
      path: "/b",
      ...TRADE_EXECUTE_ACCESS,
      method: "POST",
      handler: async (_ctx, _input, call) => {
        seen.push(call.principal satisfies KeyPrincipal);
        return {};
      },
    });
    defineOperation({
      ...base,
      id: "open",
      path: "/c",
      permission: "none",
      handler: async (_ctx, _input, call) => {
        // @ts-expect-error a public operation may be called without a key
        seen.push(call.principal satisfies KeyPrincipal);
        return {};
      },
    });
    defineOperation({
      ...base,
      id: "proof",
      path: "/d",
      permission: "wallet-proof",
      handler: async (_ctx, _input, call) => {
        // @ts-expect-error a wallet proof is not a key
        seen.push(call.principal satisfies KeyPrincipal);
        return {};
      },
    });
    const all: Permission[] = ["none", "api-key-read", "api-key-execute", "wallet-proof"];
    assert.deepEqual(all.filter(requiresKey), ["api-key-read", "api-key-execute"]);
  });
});
