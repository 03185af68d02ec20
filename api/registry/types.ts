/**
 * The operation registry's types: every API operation is one `Operation` value, declared once in its own file under
 * api/operations/<area>/. REST routes, /openapi.json, /discover/capabilities, the MCP tools and every middleware
 * (auth, rate limits, idempotency, deprecation, public record) read these fields; nothing is declared twice.
 */
import type { z } from "zod";
import type { ServiceContext } from "../context";
import type { Services } from "../services";
import type { AgentTier, Scope } from "../domain/auth/scopes";
import type { KeyPrincipal } from "../domain/auth/principal";
import type { ErrorCode } from "../platform/errors/codes";
import type { RateClass } from "../platform/rate-limit/limits";
import type { CommitUnit } from "../../relayer/db/group-commit";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** Which surface a call came through: REST, the MCP adapter, or a page of the web site (public reads only). */
export type Surface = "rest" | "mcp" | "site";
export type Permission = "none" | "api-key-read" | "api-key-execute" | "wallet-proof";
/** The permissions only a valid API key passes: the auth middleware refuses a call without one before the handler. */
export type KeyPermission = "api-key-read" | "api-key-execute";
/** Who calls an operation of permission `A`: always a key for key permissions; a key or nobody otherwise. */
export type PrincipalOf<A extends Permission> = A extends KeyPermission ? KeyPrincipal : KeyPrincipal | null;

/** What an operation sees of the registry (api/registry/registry.ts): the operations the service serves, in order. */
export interface ServedOperations {
  readonly operations: readonly AnyOperation[];
}

/** Whether `permission` admits only callers with a valid API key. */
export function requiresKey(permission: Permission): permission is KeyPermission {
  return permission === "api-key-read" || permission === "api-key-execute";
}

/** Deprecation of an operation (RFC 8594 / RFC 9745 headers; OpenAPI `deprecated` + `x-` fields). */
export interface Deprecation {
  /** ISO date the operation was deprecated. */
  since: string;
  /** ISO date it is removed, once set. */
  sunset?: string;
  /** Successor, `METHOD /path` relative to the API base, where one exists. */
  replacement?: string;
}

/** What an agent owns and names by id in a request. */
export interface OwnedResource {
  field: string;
  kind: "webhook" | "apiKey" | "order";
  notFound: ErrorCode;
}

/** The parsed input of an operation: path params, query and body after their zod schemas. */
export interface OperationInput<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
}

/** What a handler learns about the call besides its input; `A` is the operation's permission. */
export interface CallContext<A extends Permission = Permission> {
  /** The authenticated key: always set for api-key permissions, else set when one was presented and valid. */
  principal: PrincipalOf<A>;
  /** Request id (X-Request-Id). */
  requestId: string;
  /** The client's IP address. */
  ip: string;
  /** The resolved API date-version (Svc-Version pin or current). */
  version: string;
  /** Which surface the call came through. */
  surface: Surface;
  /** Origin of the public URL the caller used, e.g. http://127.0.0.1:8080. */
  origin: string;
  services: Services;
  /** Every operation served (capabilities of a key, discovery documents): the service's Registry. */
  registry: ServedOperations;
  /** A request header (case-insensitive), for protocols that travel in headers (x402 payments). */
  header?: (name: string) => string | undefined;
  /**
   * The call's open commit unit when the operation is group-committed (`groupCommit`), else null. Hand it to what
   * writes for the call (`exchange.submit(command, { unit })`): the writes commit with the call's own records, and the
   * answer leaves once they did (relayer/db/group-commit.ts).
   */
  unit: CommitUnit | null;
}

/** A handler's answer when it needs a status other than the default or extra headers. */
export class Reply<T = unknown> {
  constructor(
    readonly status: number,
    readonly body: T,
    readonly headers: Record<string, string> = {},
  ) {}
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface Operation<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema = Schema,
  A extends Permission = Permission,
> {
  /** operationId, camelCase, unique. */
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path (`/discover/markets/{address}`), relative to /api/agent/v1 unless `root`. */
  path: string;
  /** True for paths on the host root (e.g. /api/auth/nonce). */
  root?: boolean;
  summary: string;
  description?: string;
  /** Grouping for docs and capabilities, e.g. `identity`, `registration`, `discovery`. */
  category: string;
  /** Who may call; it also types `call.principal` of the handler (non-null for api-key permissions). */
  permission: A;
  /** Lowest authorization tier allowed (ignored when permission is none or wallet-proof). */
  tier: AgentTier;
  /** Scopes the key must hold (x-required-scopes). */
  scopes: readonly Scope[];
  rateClass: RateClass;
  /** False for uncharged operations (e.g. GET /me): no key budget, no RateLimit headers; per-IP limits still apply. */
  charged: boolean;
  /** Writes need Idempotency-Key unless exempt. */
  idempotency: "required" | "exempt";
  /**
   * A write whose durable records (journal entries, Idempotency-Key record, call record) are group-committed in one
   * transaction per tick, the answer sent once they committed (docs/api-performance.md "Group commit"): the trading
   * writes, and the negotiate flow's steps. Such a call writes no claim row, so its other effects must be idempotent by
   * state: a crash after them and before the tick leaves no stored answer, and the retry must find and answer them.
   */
  groupCommit?: boolean;
  /** A separate per-IP limiter (registration, key recovery), besides the general one. */
  ipLimit?: "register" | "recovery";
  request: { params?: P; query?: Q; body?: B };
  /** Success status (default 200). */
  status?: number;
  /** Other success statuses the handler answers with the same body (an update answers 200 where a create answers
   *  201; a dormant registration 202): /openapi.json lists each, so it documents every status the operation gives. */
  otherStatuses?: readonly number[];
  /** Media type of a non-JSON answer (the Atom change feed): the handler returns the text, `response` is z.string(),
   *  REST sends it as is, /openapi.json documents that type, and MCP gives the text as the tool's content. */
  responseContentType?: string;
  response: R;
  /** Response fields whose values are secrets shown once: redacted in stored idempotent replays. */
  secretFields?: readonly string[];
  /** MCP tool name (`svc_*`), or null for REST-only operations. */
  mcpTool: `svc_${string}` | null;
  deprecation?: Deprecation;
  /** The MCP tool needs a fresh wallet proof (`svc-mcp-auth:` challenge, docs/mcp.md) before the operation runs. */
  walletProof?: boolean;
  /**
   * Paid over x402 (REST: PAYMENT-SIGNATURE in, 402 / PAYMENT-RESPONSE out). Its MCP tool takes the payment as the
   * `payment` argument (or `_meta["x402/payment"]`), answers a 402 with x402's PaymentRequired as structured content
   * and the settlement in `_meta["x402/payment-response"]` (api/transports/mcp/x402.ts, docs/mcp.md "Paying over MCP").
   */
  x402?: boolean;
  /** The input field (a path parameter or body member) naming a resource the caller owns: another agent's id answers
   *  `notFound` (404) exactly as an unknown id does, and changes nothing (the auth matrix checks it, test/fuzz). */
  ownedResource?: OwnedResource;
  /** Error codes this operation answers with besides the ones every operation of its kind can give (documented in /openapi.json). */
  errors?: readonly ErrorCode[];
  handler(ctx: ServiceContext, input: OperationInput<Out<P>, Out<Q>, Out<B>>, call: CallContext<A>): Promise<z.input<R> | Reply<z.input<R>>>;
}

/** The access of every trading write (order book and trade lanes): execute tier, trade:execute, one charged write,
 *  Idempotency-Key required (a retried trade replays, never trades twice). Spread it into an operation. */
export const TRADE_EXECUTE_ACCESS = {
  permission: "api-key-execute",
  tier: "execute",
  scopes: ["trade:execute"],
  rateClass: "write",
  charged: true,
  idempotency: "required",
} as const satisfies Pick<Operation, "permission" | "tier" | "scopes" | "rateClass" | "charged" | "idempotency">;

/** The access of a read of the caller's own account that needs no scope: any live key of any tier, one charged read.
 *  Spread it into an operation. */
export const KEY_READ_ACCESS = {
  permission: "api-key-read",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
} as const satisfies Pick<Operation, "permission" | "tier" | "scopes" | "rateClass" | "charged" | "idempotency">;

/** The access of a read of the caller's own holdings (orders, payouts): any key tier holding portfolio:read, one
 *  charged read. Spread it into an operation. */
export const PORTFOLIO_READ_ACCESS = {
  permission: "api-key-read",
  tier: "read-only",
  scopes: ["portfolio:read"],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
} as const satisfies Pick<Operation, "permission" | "tier" | "scopes" | "rateClass" | "charged" | "idempotency">;

/** Any operation, as the adapters see it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any, any, any, any>;

/** Declares an operation with its types inferred from the schemas and from its permission (`call.principal`). */
export function defineOperation<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema = Schema,
  A extends Permission = Permission,
>(op: Operation<P, Q, B, R, A>): Operation<P, Q, B, R, A> {
  return op;
}
