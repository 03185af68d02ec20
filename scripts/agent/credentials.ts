/**
 * The agent CLI's credential file: one JSON document of named profiles, each a service URL, the agent's API key and,
 * when the CLI made or was given the agent's wallet, that wallet's private key (it recovers the API key by wallet
 * proof). The file is created with mode 0600 in a directory of mode 0700 and rewritten whole through a temporary file
 * and a rename, so a crash never leaves half a key. It lives in `$PM_AGENT_HOME`, else `$XDG_CONFIG_HOME/pm-agent`,
 * else `~/.config/pm-agent`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface Profile {
  /** The API base URL, e.g. http://127.0.0.1:8080/api/agent/v1. */
  baseUrl: string;
  apiKey: string;
  agentId: string;
  name: string;
  keyId?: string;
  walletAddress?: string | null;
  /** 0x + 64 hex; only when the CLI generated the wallet or was given its key. */
  walletPrivateKey?: `0x${string}`;
  savedAt: string;
}

export interface CredentialFile {
  version: 1;
  profiles: Record<string, Profile>;
}

export function credentialDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PM_AGENT_HOME) return env.PM_AGENT_HOME;
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "pm-agent");
}

export function credentialPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(credentialDir(env), "credentials.json");
}

export class CredentialError extends Error {}

export function readCredentials(env: NodeJS.ProcessEnv = process.env): CredentialFile {
  const path = credentialPath(env);
  if (!existsSync(path)) return { version: 1, profiles: {} };
  // A file others can read holds keys that are no longer private: say so rather than use it silently.
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077) throw new CredentialError(`${path} is readable by others (mode ${mode.toString(8)}); run chmod 600 ${path}`);
  const parsed = JSON.parse(readFileSync(path, "utf8")) as CredentialFile;
  if (parsed.version !== 1 || typeof parsed.profiles !== "object") throw new CredentialError(`${path} is not a pm-agent credential file`);
  return parsed;
}

export function writeCredentials(file: CredentialFile, env: NodeJS.ProcessEnv = process.env): string {
  const dir = credentialDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const path = credentialPath(env);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
  return path;
}

export function saveProfile(name: string, profile: Profile, env: NodeJS.ProcessEnv = process.env): string {
  const file = readCredentials(env);
  file.profiles[name] = profile;
  return writeCredentials(file, env);
}

export function removeProfile(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const file = readCredentials(env);
  if (!(name in file.profiles)) return false;
  delete file.profiles[name];
  writeCredentials(file, env);
  return true;
}
