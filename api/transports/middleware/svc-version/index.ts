/** `Svc-Version` pin: resolves the requested date-version (400 when unusable) and echoes the one served. */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../../platform/errors/api-error";
import { API_VERSIONS, resolveVersion } from "../../../platform/versioning/versions";
import { addResponseHeaders } from "../response-headers";

export interface SvcVersionVariables {
  apiVersion: string;
}

declare module "hono" {
  interface ContextVariableMap extends SvcVersionVariables {}
}

export function svcVersion(): MiddlewareHandler {
  return async function svcVersionMiddleware(c, next) {
    const pin = c.req.header("svc-version");
    const version = resolveVersion(pin);
    if (!version) {
      throw new ApiError("INVALID_PAYLOAD", `Svc-Version must be a date YYYY-MM-DD on or after ${API_VERSIONS[0]}; got ${JSON.stringify(pin)}`, {
        field: "Svc-Version",
        supportedVersions: API_VERSIONS,
      });
    }
    c.set("apiVersion", version);
    addResponseHeaders(c, { "svc-version": version });
    return next();
  };
}
