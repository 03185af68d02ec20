/**
 * The reputation reads (spec "Reputation and profile operations"; their paths are ours, docs/leaderboard.md
 * "Reputation"): by wallet, by agent, and in a batch of up to 100 wallets, public reads like the leaderboard; the
 * reputation leaderboard by role (./leaderboard.ts); the agent's own reputation events (./own-events.ts); and the
 * analysts' scoring record and cohort (./scoring.ts).
 */
import { z } from "zod";
import type { Address } from "viem";
import { defineOperation, type AnyOperation } from "../../registry/types";
import { ApiError } from "../../platform/errors/api-error";
import { ledgerAccountOf } from "../../domain/auth/ledger-account";
import { agentById } from "../../domain/auth/agents";
import { reputationsOf, type ReputationDeps } from "../../domain/ranking/reputation";
import type { ServiceContext } from "../../context";
import type { Services } from "../../services";
import { evmAddress, PUBLIC_READ } from "../discover/common";
import { reputationRecordSchema } from "./schemas";
import { listOwnReputationEvents } from "./own-events";
import { getReputationLeaderboard } from "./leaderboard";
import { getScoringCohort, getScoringRecord } from "./scoring";

const REPUTATION_READ = { ...PUBLIC_READ, category: "reputation" } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a reputation record is read from, for this call. */
const depsOf = (ctx: ServiceContext, call: { services: Services }): ReputationDeps => ({
  db: ctx.db,
  now: ctx.clock.now(),
  outcomeOf: call.services.creation.outcomeOf,
  leaderboard: call.services.leaderboard,
});

export const getWalletReputation = defineOperation({
  id: "getWalletReputation",
  method: "GET",
  path: "/reputation/wallets/{walletAddress}",
  summary: "Reputation of a wallet: creator and juror tiers, ballots, all-time trading",
  ...REPUTATION_READ,
  request: { params: z.strictObject({ walletAddress: evmAddress }) },
  response: reputationRecordSchema,
  mcpTool: "svc_get_wallet_reputation",
  async handler(ctx, { params }, call) {
    const [record] = await reputationsOf(depsOf(ctx, call), [params.walletAddress as Address]);
    return record;
  },
});

export const getAgentReputation = defineOperation({
  id: "getAgentReputation",
  method: "GET",
  path: "/reputation/agents/{agentId}",
  summary: "Reputation of an agent, by its id: the record of its ledger account",
  ...REPUTATION_READ,
  errors: ["AGENT_NOT_FOUND"],
  request: { params: z.strictObject({ agentId: z.string().min(1).max(128) }) },
  response: reputationRecordSchema.extend({ agentId: z.string(), name: z.string() }),
  mcpTool: "svc_get_agent_reputation",
  async handler(ctx, { params }, call) {
    // Agent ids are UUIDs here; the spec allows any 1..128 characters, which name no agent of ours.
    const row = UUID.test(params.agentId) ? await agentById(ctx.db, params.agentId) : null;
    if (!row) throw new ApiError("AGENT_NOT_FOUND", `no agent ${params.agentId}`, { agentId: params.agentId });
    const account = (row.ledger_account ?? ledgerAccountOf(row.id, row.wallet_address)).toLowerCase() as Address;
    const [record] = await reputationsOf(depsOf(ctx, call), [account]);
    return { agentId: row.id, name: row.name, ...record };
  },
});

export const batchReputation = defineOperation({
  id: "batchReputation",
  method: "POST",
  path: "/reputation/batch",
  summary: "Reputation of up to 100 wallets, in request order",
  ...REPUTATION_READ,
  request: { body: z.strictObject({ walletAddresses: z.array(evmAddress).min(1).max(100) }) },
  response: z.object({ records: z.array(reputationRecordSchema) }),
  mcpTool: "svc_batch_reputation",
  async handler(ctx, { body }, call) {
    return { records: await reputationsOf(depsOf(ctx, call), body.walletAddresses as Address[]) };
  },
});

export const REPUTATION_OPERATIONS: AnyOperation[] = [
  getWalletReputation,
  getAgentReputation,
  batchReputation,
  getReputationLeaderboard,
  listOwnReputationEvents,
  getScoringRecord,
  getScoringCohort,
];
