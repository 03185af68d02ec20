/** pm-agent's account commands: register, login, logout, recover, whoami, and the hand-off to shells and MCP clients (env, mcp). */
import { Option } from "commander";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { INSTALL_CLIENTS } from "../../../api/operations/meta/install-snippets";
import { AgentClient } from "../client";
import { removeProfile } from "../credentials";
import { type CliContext, type Json, UsageError } from "../context";

export function addAccountCommands({ program, io, write, globals, stored, baseUrl, client, show, keep }: CliContext): void {
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
}
