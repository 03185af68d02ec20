/**
 * The operator's credential for /admin/v1 (docs/admin.md): ADMIN_TOKEN when set, else a random token generated into
 * DATA_DIR/admin-token (mode 0600) on the first start and read from there afterwards. It is never an agent key: it has
 * its own prefix, lives outside the agents' key table, and an agent key is refused in its place.
 */
import { randomBytes, timingSafeEqual, createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const ADMIN_TOKEN_PREFIX = "adm_";

export interface AdminToken {
  token: string;
  /** Where it came from: the environment, or the file (its path). */
  source: "env" | "file";
  file: string | null;
}

export function adminTokenFile(dataDir: string): string {
  return join(dataDir, "admin-token");
}

/** The token the service accepts; creates the file on first use when ADMIN_TOKEN is unset. */
export function resolveAdminToken(opts: { envToken?: string; dataDir: string }): AdminToken {
  if (opts.envToken) return { token: opts.envToken, source: "env", file: null };
  const file = adminTokenFile(opts.dataDir);
  if (existsSync(file)) {
    // Someone loosened the mode: put it back, the token is as good as a root password on this service.
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    const token = readFileSync(file, "utf8").trim();
    if (token) return { token, source: "file", file };
  }
  mkdirSync(dirname(file), { recursive: true });
  const token = `${ADMIN_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, source: "file", file };
}

/** The token a client (the admin CLI) should present: ADMIN_TOKEN, else the file's, else null (none generated yet). */
export function readAdminToken(opts: { envToken?: string; dataDir: string }): string | null {
  if (opts.envToken) return opts.envToken;
  const file = adminTokenFile(opts.dataDir);
  if (!existsSync(file)) return null;
  return readFileSync(file, "utf8").trim() || null;
}

/** Constant-time comparison (over digests, so the lengths may differ). */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
