import { z } from "zod";
import { defineOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { sha256Hex } from "../../platform/hashing/canonical-json";
import { groupCommitterOf } from "../../../relayer/db/group-commit";

/**
 * GET /agents/{agentId}/calls: the public record of an agent's calls (spec: "Every call is kept on a public
 * record"), newest first. Written by the call-record middleware for every call made with a valid key. It shows what
 * an agent did and when, never what it sent: the request is represented by its SHA-256 (canonical JSON of path,
 * query and body), which the agent can match against its own copy. The Idempotency-Key is kept and shown the same
 * way, as its SHA-256: the record ties each call to the key that made it (retries of one write share it) without
 * publishing a token the agent chose.
 */
const callSchema = z.object({
  id: z.string().describe("record id; later calls have larger ids"),
  operation: z.string().describe("operationId, e.g. placeOrder"),
  method: z.string(),
  path: z.string(),
  surface: z.enum(["rest", "mcp"]),
  status: z.number().int(),
  at: z.number().int().describe("epoch ms"),
  idempotent: z.boolean().describe("the call carried an Idempotency-Key"),
  idempotencyKeySha256: z.string().nullable().describe("0x + sha256 hex of the Idempotency-Key (UTF-8), or null without one"),
  requestHash: z.string().nullable().describe("sha256 of the canonical JSON of the request's path, query and body"),
});

export const listAgentCalls = defineOperation({
  id: "listAgentCalls",
  method: "GET",
  path: "/agents/{agentId}/calls",
  summary: "An agent's public call record, newest first",
  description:
    "Every call made with a valid key: operation, time, status and the request's SHA-256, never its content. Page with `cursor` = the previous page's `nextCursor`.",
  category: "identity",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  errors: ["AGENT_NOT_FOUND"],
  request: {
    params: z.strictObject({ agentId: z.string().uuid() }),
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(200).default(50),
      cursor: z
        .string()
        .regex(/^[1-9]\d{0,18}$/, "must be a nextCursor of this list")
        .optional(),
    }),
  },
  response: z.object({ agentId: z.string(), calls: z.array(callSchema), nextCursor: z.string().nullable() }),
  mcpTool: "svc_list_agent_calls",
  async handler(ctx, { params, query }) {
    const [agent] = await ctx.db.query<{ id: string }>(`SELECT id FROM api_agents WHERE id = $1`, [params.agentId]);
    if (!agent) throw new ApiError("AGENT_NOT_FOUND", `agent ${params.agentId} does not exist`);
    // A read's record joins a commit tick after its answer left (call-record middleware): the calls answered so far
    // are all on the page once the units sealed before now have settled.
    await groupCommitterOf(ctx.db)?.sealedSettled();
    // One row more than asked tells whether another page exists.
    const rows = await ctx.db.query<{
      id: string;
      operation: string;
      method: string;
      path: string;
      surface: "rest" | "mcp";
      status: number;
      at: string;
      idempotency_key: string | null;
      body_hash: string | null;
    }>(
      `SELECT id::text, operation, method, path, surface, status, at::text, idempotency_key, body_hash FROM api_call_records
       WHERE agent_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint) ORDER BY id DESC LIMIT $3`,
      [params.agentId, query.cursor ?? null, query.limit + 1],
    );
    const page = rows.slice(0, query.limit);
    return {
      agentId: params.agentId,
      calls: page.map((r) => ({
        id: r.id,
        operation: r.operation,
        method: r.method,
        path: r.path,
        surface: r.surface,
        status: Number(r.status),
        at: Number(r.at),
        idempotent: r.idempotency_key !== null,
        idempotencyKeySha256: r.idempotency_key === null ? null : sha256Hex(r.idempotency_key),
        requestHash: r.body_hash,
      })),
      nextCursor: rows.length > query.limit ? page[page.length - 1].id : null,
    };
  },
});
