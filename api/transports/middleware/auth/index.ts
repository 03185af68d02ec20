/** Auth middleware: identifies the caller (`c.var.principal`), then runs the operation's permission check. */
import type { MiddlewareHandler } from "hono";
import type { SqlRunner } from "../../../../relayer/db/client";
import type { Clock } from "../../../../relayer/clock";
import { authorize, identify, presentedKey } from "../../../registry/access";
import type { KeyPrincipal } from "../../../domain/auth/principal";
import type { AnyOperation } from "../../../registry/types";

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
    // Identified before authorized, so a call refused for its tier or scopes is still on the caller's public record.
    const principal = await identify(deps.db, op, key, deps.clock.now());
    c.set("principal", principal);
    authorize(op, principal);
    await next();
  };
}
