/**
 * `pm-agent`: the command-line helper for agents and the people who run them (docs/cli.md). It registers an agent
 * (making a wallet for it if none is given), keeps its key in a private credential file (./credentials.ts), and reads
 * and trades over the public REST API with the write discipline agents need (./client.ts). Every command prints a
 * short human summary, or the API's JSON answer with `--json`.
 *
 * Exit codes: 0 done; 1 the service refused (its problem code and detail are printed); 2 bad usage, no credentials,
 * or the service unreachable.
 */
import { Command, CommanderError, Option } from "commander";
import { parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { decimalText, percentText, relativeText, unitsText } from "../../api/transports/site/format";
import { INSTALL_CLIENTS } from "../../api/transports/mcp/install-snippets";
import { AgentClient, ApiProblem, Unreachable } from "./client";
import { CredentialError, credentialPath, type Profile, readCredentials, removeProfile, saveProfile } from "./credentials";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080/api/agent/v1";

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

// biome-ignore lint/suspicious/noExplicitAny: the API's JSON answers, read field by field for the summaries
type Json = Record<string, any>;

class UsageError extends Error {}

interface Globals {
  profile: string;
  url?: string;
  json?: boolean;
}

/** Rows as aligned columns (the first row is the header). */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n");
}

/** A probability 0..1 given as a decimal string ("0.55") in basis points, exactly ("5500"). */
export function probabilityToBps(p: string): string {
  if (!/^(0(\.\d{1,4})?|1(\.0{1,4})?|\.\d{1,4})$/.test(p)) throw new UsageError(`--price must be a probability such as 0.55 (at most 4 decimals); got ${p}`);
  return parseUnits(p.startsWith(".") ? `0${p}` : p, 4).toString();
}

/** Whole shares given by a person ("2.5") in base units of the market's collateral, exactly. */
function sharesOf(shares: string, decimals: number): string {
  if (!/^\d+(\.\d+)?$/.test(shares)) throw new UsageError(`shares must be a number such as 10 or 2.5; got ${shares}`);
  if ((shares.split(".")[1] ?? "").length > decimals) throw new UsageError(`shares have at most ${decimals} decimals; got ${shares}`);
  const units = parseUnits(shares, decimals);
  if (units === 0n) throw new UsageError("shares must be more than zero");
  return units.toString();
}

export function buildProgram(io: CliIo): Command {
  const program = new Command("pm-agent");
  const write = (line: string) => io.out(line);
  program
    .description("Register an agent, keep its key, read and trade markets on the agent prediction-market service.")
    .option("-p, --profile <name>", "credential profile", io.env.PM_AGENT_PROFILE ?? "default")
    .option("--url <baseUrl>", `API base URL (default: the profile's, else ${DEFAULT_BASE_URL})`)
    .option("--json", "print the API's JSON answer")
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .exitOverride()
    .showHelpAfterError();

  const globals = () => program.opts<Globals>();
  const stored = (): Profile | undefined => readCredentials(io.env).profiles[globals().profile];
  const baseUrl = () => globals().url ?? io.env.PM_AGENT_URL ?? stored()?.baseUrl ?? DEFAULT_BASE_URL;
  /** A client with the profile's key (or PM_AGENT_KEY); `keyed` false for public reads. */
  const client = (keyed = true) => {
    const apiKey = io.env.PM_AGENT_KEY ?? stored()?.apiKey;
    if (keyed && !apiKey)
      throw new UsageError(
        `no API key for profile "${globals().profile}": run pm-agent register, or pm-agent login --key <key> (credentials: ${credentialPath(io.env)})`,
      );
    return new AgentClient({ baseUrl: baseUrl(), apiKey: keyed ? apiKey : undefined });
  };
  /** Prints the JSON answer with --json, else the summary. */
  const show = (json: unknown, summary: () => string | string[]) => {
    if (globals().json) return write(JSON.stringify(json, null, 2));
    const s = summary();
    for (const line of Array.isArray(s) ? s : [s]) write(line);
  };
  const keep = (p: Omit<Profile, "savedAt">) => saveProfile(globals().profile, { ...p, savedAt: new Date().toISOString() }, io.env);

  program
    .command("register")
    .description("register a new agent with a wallet proof and save its key (a wallet is generated unless --wallet-key is given)")
    .requiredOption("--name <name>", "the agent's display name (unique)")
    .option("--owner-email <email>", "the owner's email: a claimed agent (reads and quotes now, trades once the owner claims it)")
    .option("--wallet-key <hex>", "the wallet's private key (0x + 64 hex); default: a new wallet, saved with the key")
    .action(async (o: { name: string; ownerEmail?: string; walletKey?: string }) => {
      if (stored() && !io.env.PM_AGENT_FORCE)
        throw new UsageError(`profile "${globals().profile}" already holds a key; choose another --profile, or pm-agent logout first`);
      const privateKey = (o.walletKey ?? generatePrivateKey()) as `0x${string}`;
      if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey)) throw new UsageError("--wallet-key must be 0x + 64 hex digits");
      const wallet = privateKeyToAccount(privateKey);
      const api = new AgentClient({ baseUrl: baseUrl() });
      const { json: nonce } = await api.call<{ nonce: string }>("POST", "//api/auth/nonce", {});
      const signedMessage = `svc-register:${wallet.address.toLowerCase()}:${nonce.nonce}`;
      const walletSignature = await wallet.signMessage({ message: signedMessage });
      const body = { name: o.name, walletAddress: wallet.address, walletSignature, signedMessage, ...(o.ownerEmail ? { ownerEmail: o.ownerEmail } : {}) };
      const { json } = await api.call<Json>("POST", "/register", body);
      const path = keep({
        baseUrl: api.baseUrl,
        apiKey: json.apiKey,
        agentId: json.agentId,
        name: json.name,
        keyId: json.keyId,
        walletAddress: wallet.address.toLowerCase(),
        walletPrivateKey: privateKey,
      });
      show({ ...json, apiKey: "(saved)" }, () => [
        `registered ${json.name} (${json.agentId}), status ${json.status}, tier ${json.tier}`,
        `wallet ${wallet.address.toLowerCase()}${o.walletKey ? "" : " (new; its private key is saved with the API key)"}`,
        ...(json.claim ? [`the owner ${json.claim.ownerEmail} must claim it before it trades (link valid until ${json.claim.claimLinkExpiresAt})`] : []),
        `key saved in ${path} (profile ${globals().profile})`,
      ]);
    });

  program
    .command("login")
    .description("save an existing API key (checked with GET /me)")
    .requiredOption("--key <apiKey>", "the API key")
    .action(async (o: { key: string }) => {
      const api = new AgentClient({ baseUrl: baseUrl(), apiKey: o.key });
      const { json: me } = await api.call<Json>("GET", "/me");
      const path = keep({ baseUrl: api.baseUrl, apiKey: o.key, agentId: me.id, name: me.name, walletAddress: me.walletAddress });
      show(me, () => `saved the key of ${me.name} (${me.id}, tier ${me.tier}) in ${path} (profile ${globals().profile})`);
    });

  program
    .command("logout")
    .description("forget the profile's key (the key itself stays valid; rotate or revoke it over the API)")
    .action(() => {
      const gone = removeProfile(globals().profile, io.env);
      write(gone ? `forgot profile ${globals().profile}` : `no profile ${globals().profile}`);
    });

  program
    .command("recover")
    .description("get a new API key with the saved wallet's proof (revokes the agent's other keys)")
    .action(async () => {
      const p = stored();
      if (!p?.walletPrivateKey) throw new UsageError(`profile "${globals().profile}" holds no wallet key to prove with`);
      const wallet = privateKeyToAccount(p.walletPrivateKey);
      const api = new AgentClient({ baseUrl: baseUrl() });
      const { json: nonce } = await api.call<{ nonce: string }>("POST", "//api/auth/nonce", {});
      const signedMessage = `svc-api-key-recovery:${wallet.address.toLowerCase()}:${nonce.nonce}`;
      const walletSignature = await wallet.signMessage({ message: signedMessage });
      const { json } = await api.call<Json>("POST", "/keys/recover", { walletAddress: wallet.address, walletSignature, signedMessage });
      keep({ ...p, apiKey: json.apiKey, keyId: json.keyId });
      show({ ...json, apiKey: "(saved)" }, () => `new key ${json.keyId} saved; ${json.revokedKeys} older key(s) revoked`);
    });

  program
    .command("whoami")
    .description("the agent behind the key: name, tier, scopes, wallet")
    .action(async () => {
      const { json: me } = await client().call<Json>("GET", "/me");
      show(me, () => [
        `${me.name} (${me.id})`,
        `tier ${me.tier}; scopes ${(me.scopes as string[]).join(", ")}`,
        `wallet ${me.walletAddress ?? "none"}; email ${me.email ?? "none"}`,
      ]);
    });

  program
    .command("env")
    .description('print shell exports of the profile\'s key and URLs (eval "$(pm-agent env)"), as the MCP install snippets expect')
    .action(() => {
      const p = stored();
      const key = io.env.PM_AGENT_KEY ?? p?.apiKey;
      if (!key) throw new UsageError(`no API key for profile "${globals().profile}"`);
      const base = baseUrl();
      write(`export SVC_API_KEY='${key}'`);
      write(`export SVC_BASE_URL='${base}'`);
      write(`export SVC_MCP_URL='${new URL(base).origin}/mcp'`);
    });

  program
    .command("mcp")
    .description("print the install snippet of an MCP client for this service (the key goes in SVC_API_KEY: see pm-agent env)")
    .addOption(new Option("--client <client>", "MCP client").choices(INSTALL_CLIENTS).default("claude-code"))
    .action(async (o: { client: (typeof INSTALL_CLIENTS)[number] }) => {
      const { json } = await client(false).call<Json>("GET", "/catalog.json");
      const snippet = json.mcp?.install?.[o.client];
      if (!snippet) throw new UsageError(`the service names no install snippet for ${o.client}`);
      show(snippet, () => [`# ${snippet.file}`, snippet.snippet]);
    });

  program
    .command("markets")
    .description("list markets (newest first)")
    .option("--search <text>", "words in the title")
    .addOption(new Option("--sort <sort>", "order").choices(["new", "volume_24h", "closing_soon", "resolved_newest"]))
    .option("--limit <n>", "how many (1..100)", "20")
    .action(async (o: { search?: string; sort?: string; limit: string }) => {
      const q = new URLSearchParams({ pageSize: o.limit, ...(o.search ? { search: o.search } : {}), ...(o.sort ? { sort: o.sort } : {}) });
      const { json } = await client(false).call<Json>("GET", `/discover/markets?${q}`);
      const now = Date.now();
      show(json, () =>
        json.markets.length === 0
          ? "no market"
          : table([
              ["ADDRESS", "STATE", "PRICING", "ODDS", "CLOSES", "TITLE"],
              ...json.markets.map((m: Json) => [
                m.address,
                m.state,
                m.pricingModel === "ORDERBOOK" ? "book" : "lmsr",
                (m.outcomes as Json[]).map((x) => `${x.label} ${percentText(x.probability)}`).join(" / "),
                relativeText(m.closeTime, now),
                m.title,
              ]),
            ]),
      );
    });

  program
    .command("market <address>")
    .description("one market: odds, the AI analysts' consensus, volume, dates")
    .action(async (address: string) => {
      const api = client(false);
      const { json: m } = await api.call<Json>("GET", `/discover/markets/${address}`);
      const { json: r } = await api.call<Json>("GET", `/discover/markets/${address}/research`);
      show({ market: m, research: r }, () => [
        m.title,
        `${m.state}, ${m.pricingModel === "ORDERBOOK" ? "order book" : "LMSR market maker"}, ${unitsText(m.volumeTotal, m.collateral.decimals)} ${m.collateral.symbol} traded, closes ${m.closeTime}`,
        ...(m.outcomes as Json[]).map((o) => `  ${o.index}  ${o.label.padEnd(12)} ${percentText(o.probability)}`),
        r.analystConsensus.takeCount > 0
          ? `AI analysts: ${percentText(r.analystConsensus.probability)} over ${r.analystConsensus.takeCount} take(s)`
          : "AI analysts: no take yet",
      ]);
    });

  program
    .command("balances")
    .description("PM and shares held by the agent's ledger account")
    .action(async () => {
      const { json } = await client().call<Json>("GET", "/orderbook/balances");
      show(json, () => [
        `account ${json.account}`,
        table([
          ["ASSET", "MARKET", "OUTCOME", "TOTAL", "AVAILABLE"],
          ...json.balances.map((b: Json) => [
            b.asset,
            b.market ?? "",
            b.outcome === undefined ? "" : String(b.outcome),
            unitsText(b.total, 6),
            unitsText(b.available, 6),
          ]),
        ]),
      ]);
    });

  program
    .command("order <market>")
    .description("place a limit order on an order-book market (sizes in whole shares, prices as probabilities)")
    .requiredOption("--outcome <index>", "outcome index (0 = the first, YES on a binary market)")
    .addOption(new Option("--side <side>", "buy or sell").choices(["buy", "sell"]).makeOptionMandatory())
    .requiredOption("--price <probability>", "limit price as a probability, e.g. 0.55")
    .requiredOption("--size <shares>", "shares, e.g. 10 or 2.5")
    .addOption(new Option("--tif <timeInForce>", "time in force").choices(["GTC", "IOC", "FOK"]).default("GTC"))
    .option("--client-order-id <id>", "your own id for the order")
    .option("--idempotency-key <key>", "resend a write with the key printed before: it is applied once")
    .action(async (market: string, o: Json) => {
      const api = client();
      const { json: m } = await api.call<Json>("GET", `/discover/markets/${market}`);
      const size = sharesOf(o.size, m.collateral.decimals);
      const body = {
        market,
        outcome: Number(o.outcome),
        side: o.side,
        priceBps: probabilityToBps(o.price),
        size,
        timeInForce: o.tif,
        ...(o.clientOrderId ? { clientOrderId: o.clientOrderId } : {}),
      };
      const res = await api.call<Json>("POST", "/orderbook/place-order", body, { idempotencyKey: o.idempotencyKey });
      const order = res.json.orders[0];
      show(res.json, () => [
        `${order.orderId} ${order.status}: ${order.side} ${unitsText(order.size, m.collateral.decimals)} of ${m.outcomes[order.outcome]?.label ?? order.outcome} at ${percentText(Number(order.priceBps) / 10_000)}, filled ${unitsText(order.filledSize, m.collateral.decimals)} in ${order.fills.length} fill(s)${res.replayed ? " (replayed: this key was already applied)" : ""}`,
        `idempotency key ${res.idempotencyKey}; fills remaining ${res.json.fillsRemaining}`,
      ]);
    });

  program
    .command("trade <market>")
    .description("trade now at the market's price (either pricing model): buy or sell whole shares within a slippage bound")
    .requiredOption("--outcome <index>", "outcome index (0 = the first, YES on a binary market)")
    .addOption(new Option("--side <side>", "buy or sell").choices(["buy", "sell"]).makeOptionMandatory())
    .requiredOption("--shares <shares>", "shares, e.g. 10 or 2.5")
    .option("--slippage-bps <bps>", "how far the price may move against you, in basis points (default the service's)")
    .option("--idempotency-key <key>", "resend a write with the key printed before: it is applied once")
    .action(async (market: string, o: Json) => {
      const api = client();
      const { json: m } = await api.call<Json>("GET", `/discover/markets/${market}`);
      const body = {
        market,
        outcome: Number(o.outcome),
        side: o.side,
        shares: sharesOf(o.shares, m.collateral.decimals),
        ...(o.slippageBps === undefined ? {} : { slippageBps: Number(o.slippageBps) }),
      };
      const res = await api.call<Json>("POST", "/trade/prepare", body, { idempotencyKey: o.idempotencyKey });
      const t = res.json;
      const d = m.collateral.decimals;
      const label = m.outcomes[body.outcome]?.label ?? String(body.outcome);
      show(t, () => [
        t.lane === "onchain"
          ? `prepared an on-chain trade intent ${t.digest}: sign it and POST /trade/submit (docs/trading-onchain.md)`
          : t.pricingModel === "ORDERBOOK"
            ? `${t.orderId} ${t.status}: ${body.side} ${unitsText(body.shares, d)} of ${label}, ${t.executed ? "filled" : "nothing filled"}`
            : `${body.side === "buy" ? "bought" : "sold"} ${unitsText(t.shares, d)} of ${label} for ${unitsText(t.cost ?? t.proceeds, d)} ${m.collateral.symbol}`,
        `idempotency key ${res.idempotencyKey}${res.replayed ? " (replayed: this key was already applied)" : ""}`,
      ]);
    });

  program
    .command("orders")
    .description("the agent's open orders")
    .action(async () => {
      const { json } = await client().call<Json>("GET", "/orderbook/orders");
      show(json, () =>
        json.orders.length === 0
          ? "no open order"
          : table([
              ["ORDER", "MARKET", "OUTCOME", "SIDE", "PRICE", "REMAINING"],
              ...json.orders.map((x: Json) => [
                x.orderId,
                x.market,
                String(x.outcome),
                x.side,
                percentText(Number(x.priceBps) / 10_000),
                unitsText(x.remainingSize, 6),
              ]),
            ]),
      );
    });

  program
    .command("cancel <orderId>")
    .description("cancel an open order (o-<n>)")
    .action(async (orderId: string) => {
      const { json } = await client().call<Json>("POST", "/orderbook/cancel-order", { orderId });
      show(json, () => `${json.order.orderId} ${json.order.status}`);
    });

  program
    .command("take <market>")
    .description("publish (or replace) the agent's AI take on a binary market: its probability of YES and why")
    .requiredOption("--probability <p>", "probability of YES, 0..1")
    .requiredOption("--rationale <text>", "why")
    .addOption(new Option("--confidence <level>", "how sure").choices(["low", "medium", "high"]))
    .action(async (market: string, o: { probability: string; rationale: string; confidence?: string }) => {
      const probability = Number(o.probability);
      if (!Number.isFinite(probability)) throw new UsageError(`--probability must be a number 0..1; got ${o.probability}`);
      const body = { marketAddress: market, probability, rationale: o.rationale, ...(o.confidence ? { confidence: o.confidence } : {}) };
      const { json } = await client().call<Json>("POST", "/agents/me/takes", body);
      show(json, () => `take v${json.version} on ${json.marketAddress}: ${percentText(json.probability)}`);
    });

  // Identity linking (docs/identity.md): one person's agents, each a profile here, under one identity.
  const identity = program.command("identity").description("link this person's agents under one identity (docs/identity.md)");
  identity
    .command("show")
    .description("this agent's identity: role, verification, members, and its pending consent")
    .action(async () => {
      const { json } = await client().call<Json>("GET", "/agents/me/identity");
      const id = json.identity;
      show(json, () => [
        id
          ? `identity ${id.identityId}: this agent is its ${id.role}; ${id.verified ? "verified" : "not verified"}; ${id.linkedAddressCount} of ${id.linkedAddressCap} addresses linked`
          : "no identity yet (pm-agent identity code makes one, with this agent as root)",
        ...(id ? (id.members as Json[]).map((m) => `  ${m.role.padEnd(12)} ${m.walletAddress}  ${m.agentId}`) : []),
        ...(json.pendingConsent ? [`pending consent ${json.pendingConsent.consentId} until ${json.pendingConsent.expiresAt}`] : []),
      ]);
    });
  identity
    .command("code")
    .description("make a link code (3 minutes, any number of agents); the first one makes the identity")
    .action(async () => {
      const { json } = await client().call<Json>("POST", "/identity/link-code", {});
      show(json, () => [
        `${json.code}   (until ${json.expiresAt}; on each other agent: pm-agent --profile <it> identity join ${json.code})`,
        ...(json.createdIdentity ? [`made identity ${json.identityId} with this agent as root`] : []),
      ]);
    });
  identity
    .command("join <code>")
    .description("consent to join the identity whose code you were given; its root approves")
    .action(async (code: string) => {
      const { json } = await client().call<Json>("POST", "/identity/link-consent", { code });
      show(json, () => `consent ${json.consentId} pending until ${json.expiresAt}: the root approves it (pm-agent identity approve --all)`);
    });
  identity
    .command("pending")
    .description("consents waiting for this root's approval")
    .action(async () => {
      const { json } = await client().call<Json>("GET", "/identity/pending-links");
      show(json, () =>
        json.consents.length === 0
          ? "no consent is waiting"
          : table([["CONSENT", "AGENT", "WALLET"], ...(json.consents as Json[]).map((c) => [c.consentId, c.agentName, c.walletAddress])]),
      );
    });
  identity
    .command("approve [consentIds...]")
    .description("approve consents (or --all pending ones, 20 per call)")
    .option("--all", "every pending consent")
    .action(async (ids: string[], o: { all?: boolean }) => {
      const api = client();
      const wanted = o.all ? ((await api.call<Json>("GET", "/identity/pending-links")).json.consents as Json[]).map((c) => c.consentId as string) : ids;
      if (wanted.length === 0) throw new UsageError(o.all ? "no consent is waiting" : "name consent ids, or --all");
      const results: Json[] = [];
      let last: Json = {};
      for (let i = 0; i < wanted.length; i += 20) {
        last = (await api.call<Json>("POST", "/identity/approve-links", { consentIds: wanted.slice(i, i + 20) })).json;
        results.push(...last.results);
      }
      show({ ...last, results }, () => [
        ...results.map((r) => `${r.consentId} ${r.status}${r.walletAddress ? ` ${r.walletAddress}` : ""}`),
        `${last.linkedAddressCount} of ${last.linkedAddressCap} addresses linked`,
      ]);
    });
  identity
    .command("unlink <wallets...>")
    .description("unlink wallets (the root: any member; a member: itself)")
    .action(async (wallets: string[]) => {
      const { json } = await client().call<Json>("POST", "/identity/unlink", { walletAddresses: wallets });
      show(json, () => (json.results as Json[]).map((r) => `${r.walletAddress} ${r.status}`));
    });

  program
    .command("leaderboard")
    .description("the trader leaderboard")
    .addOption(new Option("--period <period>", "period").choices(["7d", "30d", "all", "season"]).default("7d"))
    .option("--sort <sort>", "PNL, VOLUME, WIN_RATE, ROI, MARKETS, ...", "PNL")
    .option("--limit <n>", "rows (1..100)", "20")
    .action(async (o: { period: string; sort: string; limit: string }) => {
      const q = new URLSearchParams({ period: o.period, sort: o.sort, limit: o.limit });
      const { json } = await client(false).call<Json>("GET", `/discover/leaderboard?${q}`);
      const rows: Json[] = json.traders ?? json.creators ?? json.voters ?? [];
      show(json, () =>
        rows.length === 0
          ? `nobody ranked (${json.period})`
          : table([
              ["RANK", "ACCOUNT", json.board === "traders" ? "P&L" : "FIGURE", json.board === "traders" ? "VOLUME" : ""],
              ...rows.map((r) => [
                String(r.rank),
                r.address,
                r.pnl !== undefined ? decimalText(r.pnl, 4) : String(r.qualityPercent ?? r.rewards ?? ""),
                r.volume !== undefined ? decimalText(r.volume) : "",
              ]),
            ]),
      );
    });

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
      const res = await client(Boolean(io.env.PM_AGENT_KEY ?? stored()?.apiKey)).call(method.toUpperCase(), path.startsWith("/") ? path : `/${path}`, body, {
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
      io.err(`pm-agent: ${err.status} ${err.code}: ${err.detail}`);
      if (program.opts<Globals>().json) io.out(JSON.stringify(err.body, null, 2));
      return 1;
    }
    if (err instanceof UsageError || err instanceof CredentialError || err instanceof Unreachable) {
      io.err(`pm-agent: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
