/** Auth middleware: runs the operation's permission check and exposes the caller as `c.var.principal`. */
import type { MiddlewareHandler } from "hono";
import type { SqlRunner } from "../../../relayer/db/client";
import type { Clock } from "../../../relayer/clock";
import { authenticate, presentedKey } from "../../auth/authenticate";
import type { KeyPrincipal } from "../../auth/principal";
import type { AnyOperation } from "../../registry/types";

export interface AuthVariables {
  principal: KeyPrincipal | null;
}

declare module "hono" {
  interface ContextVariableMap extends AuthVariables {}
}

export function auth(op: AnyOperation, deps: { db: SqlRunner; clock: Clock }): MiddlewareHandler {
  if (!op.permission) throw new Error(`auth: operation ${op.id} has no permission`);
  return async function authMiddleware(c, next) {
    const key = presentedKey(c.req.header("authorization"), c.req.header("x-api-key"));
    c.set("principal", await authenticate(deps.db, op, key, deps.clock.now()));
    await next();
  };
}
