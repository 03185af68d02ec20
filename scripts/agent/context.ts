/**
 * What every pm-agent command shares: where it writes, the global options, the profile's credentials, a client for
 * the API, and how an answer is shown (the summary, or the JSON with `--json`). Built once per command line by
 * `contextOf`; each group of commands (./commands/) takes what it needs from it.
 */
import type { Command } from "commander";
import { type Answer, AgentClient } from "./client";
import { credentialPath, type Profile, readCredentials, saveProfile } from "./credentials";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080/api/agent/v1";

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON answers, read field by field for the summaries
export type Json = Record<string, any>;

/** Bad usage or missing credentials: exit code 2, nothing sent. */
export class UsageError extends Error {}

/** An answer the command counts as a refusal though the call succeeded (a dry run's failed checks): exit code 1. */
export class Refused extends Error {
  constructor(
    message: string,
    readonly lines: readonly string[] = [],
  ) {
    super(message);
  }
}

export interface Globals {
  profile: string;
  url?: string;
  json?: boolean;
}

export interface CliContext {
  program: Command;
  io: CliIo;
  write: (line: string) => void;
  globals: () => Globals;
  /** The profile's saved credentials, if any. */
  stored: () => Profile | undefined;
  baseUrl: () => string;
  /** A client with the profile's key (or PM_AGENT_KEY); `keyed` false for public reads. */
  client: (keyed?: boolean) => AgentClient;
  /** Whether a key is at hand (the profile's, or PM_AGENT_KEY): reads that may go either way carry it then. */
  hasKey: () => boolean;
  /** Prints the JSON answer with --json, else the summary. */
  show: (json: unknown, summary: () => string | string[]) => void;
  /** Saves `p` as the profile. */
  keep: (p: Omit<Profile, "savedAt">) => string;
}

/** One failed check of a refusal or a dry run (`{code, field, message, reason?}`) as an indented line. */
export const failureLine = (f: Json): string => `  ${f.field}: ${f.code}${f.reason ? ` (${f.reason})` : ""} ${f.message}`;

/** The line after a write's summary: the Idempotency-Key to resend it with, and whether the answer was a replay. */
export const keyLine = (res: Pick<Answer, "idempotencyKey" | "replayed">): string =>
  `idempotency key ${res.idempotencyKey}${res.replayed ? " (replayed: this key was already applied)" : ""}`;

/** Rows as aligned columns (the first row is the header). */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n");
}

export function contextOf(program: Command, io: CliIo): CliContext {
  const write = (line: string) => io.out(line);
  const globals = () => program.opts<Globals>();
  const stored = (): Profile | undefined => readCredentials(io.env).profiles[globals().profile];
  const baseUrl = () => globals().url ?? io.env.PM_AGENT_URL ?? stored()?.baseUrl ?? DEFAULT_BASE_URL;
  const keyOf = () => io.env.PM_AGENT_KEY ?? stored()?.apiKey;
  const hasKey = () => Boolean(keyOf());
  const client = (keyed = true) => {
    const apiKey = keyOf();
    if (keyed && !apiKey)
      throw new UsageError(
        `no API key for profile "${globals().profile}": run pm-agent register, or pm-agent login --key <key> (credentials: ${credentialPath(io.env)})`,
      );
    return new AgentClient({ baseUrl: baseUrl(), apiKey: keyed ? apiKey : undefined });
  };
  const show = (json: unknown, summary: () => string | string[]) => {
    if (globals().json) return write(JSON.stringify(json, null, 2));
    const s = summary();
    for (const line of Array.isArray(s) ? s : [s]) write(line);
  };
  const keep = (p: Omit<Profile, "savedAt">) => saveProfile(globals().profile, { ...p, savedAt: new Date().toISOString() }, io.env);
  return { program, io, write, globals, stored, baseUrl, client, hasKey, show, keep };
}
