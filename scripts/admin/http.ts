/**
 * The admin CLI's way to a running service: /admin/v1 over HTTP at PUBLIC_URL (or http://HOST:PORT), with the operator
 * credential (ADMIN_TOKEN, or the token the service wrote to DATA_DIR/admin-token). `probe` says whether a service
 * answers there at all; a refused connection means none runs and the CLI may open the database itself.
 */
import type { Config } from "../../api/config";
import { readAdminToken } from "../../api/transports/admin/token";

/** A problem answered by the admin API: printed as `CODE: detail`. */
export class AdminProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly body: Record<string, unknown>,
  ) {
    super(`${code}: ${detail}`);
  }
}

/** The service answers, but not to us (no or wrong credential, or something else on the port). */
export class AdminUnreachable extends Error {}

export interface AdminHttp {
  origin: string;
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
}

/** Where the CLI looks for the service: PUBLIC_URL, else HOST:PORT (a wildcard HOST is reached on loopback). */
export function adminOrigin(config: Config): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/$/, "");
  const host = config.HOST === "0.0.0.0" || config.HOST === "::" ? "127.0.0.1" : config.HOST;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.PORT}`;
}

function refused(err: unknown): boolean {
  const code = (err as { cause?: { code?: string } }).cause?.code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EADDRNOTAVAIL" || code === "ECONNRESET";
}

/** The running service's admin API, or null when nothing listens at its address. */
export async function probeAdmin(config: Config, timeoutMs = 3000): Promise<AdminHttp | null> {
  const origin = adminOrigin(config);
  let res: Response;
  const token = readAdminToken({ envToken: config.ADMIN_TOKEN, dataDir: config.dataDir });
  try {
    res = await fetch(`${origin}/admin/v1/status`, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    if (refused(err)) return null;
    throw new AdminUnreachable(`the service at ${origin} did not answer its admin API (${(err as Error).message})`);
  }
  await res.body?.cancel();
  if (res.status === 401) {
    throw new AdminUnreachable(
      token
        ? `the service at ${origin} refused the operator credential: set ADMIN_TOKEN to the service's token (or run with the service's DATA_DIR, whose admin-token it wrote)`
        : `the service at ${origin} needs the operator credential and none was found: set ADMIN_TOKEN, or DATA_DIR to the service's data directory (it writes admin-token there)`,
    );
  }
  if (res.status !== 200) throw new AdminUnreachable(`${origin} answered ${res.status} on /admin/v1/status: is it this service? (PUBLIC_URL / PORT)`);
  return {
    origin,
    async call(method, path, body) {
      const r = await fetch(`${origin}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      if (!r.ok) throw new AdminProblem(r.status, String(json.code ?? r.status), String(json.detail ?? text), json);
      return json as never;
    },
  };
}
