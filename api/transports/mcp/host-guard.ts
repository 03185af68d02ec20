/**
 * DNS-rebinding and cross-site guard of /mcp (MCP transport spec, "Security Warning": servers must validate the
 * Origin header). A browser tricked into calling a local server sends a Host and an Origin that are not the server's:
 * a rebinding page at http://evil.example:8080 resolves its name to 127.0.0.1 but still sends `Host: evil.example:8080`,
 * and any cross-site page sends its own Origin. So the Host's name must be one this service answers as (the name of
 * PUBLIC_URL, the bound HOST, and the loopback names when bound to loopback or to every interface), and an Origin,
 * when sent (browsers only; agents send none), must name one of those hosts or be listed in MCP_ALLOWED_ORIGINS.
 * Ports are not compared: rebinding changes the name, not the port, and a proxy may rewrite the port.
 */
import type { Config } from "../../config";
import { ApiError } from "../../platform/errors/api-error";

const LOOPBACK = ["127.0.0.1", "localhost", "[::1]", "::1"];
const WILDCARD = ["0.0.0.0", "::", "[::]"];

export interface HostGuard {
  /** Throws 403 FORBIDDEN naming the header when the request's Host or Origin is not this service's. */
  check(host: string | undefined, origin: string | undefined): void;
}

/** `name` of `host[:port]` (IPv6 literals keep their brackets), lower case. */
function hostname(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.indexOf(":");
  return colon < 0 ? h : h.slice(0, colon);
}

export function hostGuard(config: Pick<Config, "HOST" | "PUBLIC_URL" | "MCP_ALLOWED_ORIGINS">): HostGuard {
  const bound = config.HOST.toLowerCase();
  const names = new Set<string>();
  if (config.PUBLIC_URL) names.add(new URL(config.PUBLIC_URL).hostname.toLowerCase());
  if (!WILDCARD.includes(bound)) names.add(bound.includes(":") && !bound.startsWith("[") ? `[${bound}]` : bound);
  if (LOOPBACK.includes(bound) || WILDCARD.includes(bound)) for (const n of LOOPBACK) names.add(n);
  const origins = new Set(config.MCP_ALLOWED_ORIGINS);
  return {
    check(host, origin) {
      if (!host || !names.has(hostname(host))) {
        throw new ApiError(
          "FORBIDDEN",
          `Host ${JSON.stringify(host ?? "")} is not a name of this MCP server (allowed: ${[...names].join(", ")}; set PUBLIC_URL to the public name)`,
          { reason: "HOST_NOT_ALLOWED" },
        );
      }
      if (origin === undefined || origins.has(origin)) return;
      let originHost: string;
      try {
        originHost = new URL(origin).host;
      } catch {
        originHost = "";
      }
      if (!originHost || !names.has(hostname(originHost))) {
        throw new ApiError(
          "FORBIDDEN",
          `Origin ${JSON.stringify(origin)} may not call this MCP server (browser pages of other sites are refused; list trusted ones in MCP_ALLOWED_ORIGINS)`,
          { reason: "ORIGIN_NOT_ALLOWED" },
        );
      }
    },
  };
}
