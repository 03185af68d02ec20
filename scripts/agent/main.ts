/**
 * `pm-agent`: the command-line helper for agents and the people who run them (docs/cli.md). It registers an agent
 * (making a wallet for it if none is given), keeps its key in a private credential file (./credentials.ts), and reads,
 * trades, creates and resolves markets over the public REST API with the write discipline agents need
 * (./client.ts). Every command prints a short human summary, or the API's JSON answer with `--json`. The commands
 * live in ./commands/, by group; what they share is ./context.ts.
 *
 * Exit codes: 0 done; 1 the service refused (its problem code, reason and detail are printed, and each failed check
 * it lists); 2 bad usage, no credentials, or the service unreachable.
 */
import { Command, CommanderError } from "commander";
import { ApiProblem, Unreachable } from "./client";
import { addAccountCommands } from "./commands/account";
import { addCreateMarketCommand } from "./commands/create-market";
import { addIdentityCommands } from "./commands/identity";
import { addLifecycleCommands } from "./commands/lifecycle";
import { addMarketCommands } from "./commands/markets";
import { addReleaseCommands } from "./commands/release";
import { addTradingCommands } from "./commands/trading";
import { type CliIo, contextOf, DEFAULT_BASE_URL, failureLine, type Globals, type Json, Refused, UsageError } from "./context";
import { CredentialError } from "./credentials";

export function buildProgram(io: CliIo): Command {
  const program = new Command("pm-agent");
  program
    .description("Register an agent, keep its key, read, trade, create and resolve markets on the agent prediction-market service.")
    .option("-p, --profile <name>", "credential profile", io.env.PM_AGENT_PROFILE ?? "default")
    .option("--url <baseUrl>", `API base URL (default: the profile's, else ${DEFAULT_BASE_URL})`)
    .option("--json", "print the API's JSON answer")
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .exitOverride()
    .showHelpAfterError();
  const cx = contextOf(program, io);
  addAccountCommands(cx);
  addMarketCommands(cx);
  addTradingCommands(cx);
  addCreateMarketCommand(cx);
  addLifecycleCommands(cx);
  addIdentityCommands(cx);
  addReleaseCommands(cx);
  const { client, hasKey, write } = cx;

  program
    .command("call <method> <path>")
    .description("call any operation with the saved key, e.g. pm-agent call GET /fills/allowance (writes get an Idempotency-Key)")
    .option("--data <json>", "request body (JSON)")
    .option("--idempotency-key <key>", "the write's Idempotency-Key (default: a new one)")
    .action(async (method: string, path: string, o: { data?: string; idempotencyKey?: string }) => {
      let body: unknown;
      if (o.data !== undefined) {
        try {
          body = JSON.parse(o.data);
        } catch {
          throw new UsageError("--data must be JSON");
        }
      }
      const res = await client(hasKey()).call(method.toUpperCase(), path.startsWith("/") ? path : `/${path}`, body, {
        idempotencyKey: o.idempotencyKey,
      });
      write(JSON.stringify(res.json, null, 2));
      if (res.idempotencyKey) io.err(`idempotency key ${res.idempotencyKey}${res.replayed ? " (replayed)" : ""}`);
    });

  return program;
}

/** Runs one command line; answers the exit code. */
export async function runAgentCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv as string[], { from: "user" });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof ApiProblem) {
      const reason = typeof err.body.reason === "string" ? ` (${err.body.reason})` : "";
      io.err(`pm-agent: ${err.status} ${err.code}${reason}: ${err.detail}`);
      // A refusal that lists several failed checks, each with its own code (a creation's), shows each with its code.
      const errors = (Array.isArray(err.body.errors) ? err.body.errors : []) as Json[];
      if (errors.length > 1 && errors.every((e) => typeof e.code === "string")) for (const e of errors) io.err(failureLine(e));
      if (program.opts<Globals>().json) io.out(JSON.stringify(err.body, null, 2));
      return 1;
    }
    if (err instanceof Refused) {
      io.err(`pm-agent: ${err.message}`);
      for (const line of err.lines) io.err(line);
      return 1;
    }
    if (err instanceof UsageError || err instanceof CredentialError || err instanceof Unreachable) {
      io.err(`pm-agent: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
