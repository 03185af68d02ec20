/**
 * Agents made on the service host without registration: the admin CLI (`npm run admin -- agent create`) and the demo
 * agent `npm start` prints a key for. Each gets a fresh wallet (its private key is returned once and stored nowhere).
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Database } from "../../../relayer/db/client";
import type { Clock } from "../../../relayer/clock";
import { agentById, createAgent, type RegistrationPath } from "./agents";
import { issueKey, revokeAgentKeys } from "./api-keys";
import { ledgerAccountOf } from "./ledger-account";
import { AGENT_TIERS, scopesForTier, type AgentTier, type Scope } from "./scopes";

export interface LocalAgent {
  agentId: string;
  name: string;
  tier: AgentTier;
  scopes: Scope[];
  walletAddress: string;
  /** The wallet's private key: printed once by the CLI, never stored. Null when an existing agent got a new key. */
  walletPrivateKey: `0x${string}` | null;
  ledgerAccount: string;
  keyId: string;
  apiKey: string;
}

export function parseTier(s: string): AgentTier {
  if (!(AGENT_TIERS as readonly string[]).includes(s)) throw new Error(`tier must be one of ${AGENT_TIERS.join(", ")}; got ${JSON.stringify(s)}`);
  return s as AgentTier;
}

/** Creates an agent with a fresh wallet and its first key (name taken -> ApiError NAME_TAKEN). */
export async function createLocalAgent(
  db: Database,
  clock: Clock,
  opts: { name: string; tier?: AgentTier; path?: Extract<RegistrationPath, "admin" | "demo"> },
): Promise<LocalAgent> {
  const tier = opts.tier ?? "execute";
  const privateKey = generatePrivateKey();
  const wallet = privateKeyToAccount(privateKey).address.toLowerCase();
  const scopes = scopesForTier(tier);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const agentId = await createAgent(
      tx,
      { name: opts.name, tier, scopes, registrationPath: opts.path ?? "admin", walletAddress: wallet, emailVerified: false },
      now,
    );
    const key = await issueKey(tx, agentId, now);
    return {
      agentId,
      name: opts.name,
      tier,
      scopes,
      walletAddress: wallet,
      walletPrivateKey: privateKey,
      ledgerAccount: ledgerAccountOf(agentId, wallet),
      ...key,
    };
  });
}

export const DEMO_AGENT_NAME = "demo-agent";
/** The demo market maker `npm start` runs (scripts/demo-agents/market-maker.ts): its own agent, keyed the same way. */
export const DEMO_MARKET_MAKER_NAME = "demo-market-maker";

/**
 * The demo agent of `npm start`: created on the first start, and on every start given a new key with its earlier
 * keys revoked (keys are stored only as hashes, so an old one cannot be shown again; docs/auth.md).
 */
export async function issueDemoKey(db: Database, clock: Clock, name: string = DEMO_AGENT_NAME): Promise<LocalAgent> {
  const [row] = await db.query<{ id: string }>(`SELECT id FROM api_agents WHERE registration_path = 'demo' AND name_key = $1`, [name]);
  if (!row) return createLocalAgent(db, clock, { name, tier: "execute", path: "demo" });
  const now = clock.now();
  return db.transaction(async (tx) => {
    await revokeAgentKeys(tx, row.id, now);
    const key = await issueKey(tx, row.id, now);
    const agent = (await agentById(tx, row.id))!;
    const scopes = typeof agent.scopes === "string" ? (JSON.parse(agent.scopes) as Scope[]) : agent.scopes;
    return {
      agentId: agent.id,
      name: agent.name,
      tier: agent.tier,
      scopes,
      walletAddress: agent.wallet_address!,
      walletPrivateKey: null,
      ledgerAccount: agent.ledger_account,
      ...key,
    };
  });
}
