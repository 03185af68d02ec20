/**
 * Every operation of the API, in one list. Adding an operation: write its file under api/operations/<area>/ and add
 * one line here.
 */
import type { AnyOperation } from "../registry/types";
import { getServerTime } from "./system/get-server-time";
import { DISCOVERY_OPERATIONS } from "./discover";
import { createAuthNonce } from "./auth/create-nonce";
import { verifyWalletSignIn } from "./auth/verify-wallet-proof";
import { getAuthDiscovery } from "./auth/get-auth-discovery";
import { getCredentialsDiscovery } from "./auth/get-credentials";
import { getMe } from "./identity/get-me";
import { getFillAllowance } from "./identity/get-fills-allowance";
import { listAgentCalls } from "./identity/list-agent-calls";
import { getMcpDiscovery } from "./registration/get-mcp-discovery";
import { registerAgent } from "./registration/register";
import { getAgentClaim } from "./registration/get-claim";
import { claimAgent } from "./registration/claim-agent";
import { resendClaimLink } from "./registration/resend-claim-link";
import { bindEmail } from "./registration/bind-email";
import { verifyEmail } from "./registration/verify-email";
import { bindWallet } from "./registration/bind-wallet";
import { rotateKey } from "./keys/rotate-key";
import { recoverKey } from "./keys/recover-key";
import { META_OPERATIONS } from "./meta";
import { EVENTS_OPERATIONS } from "./events";
import { WEBHOOK_OPERATIONS } from "./webhooks";
import { TRADE_OPERATIONS } from "./trade";
import { ORDERBOOK_OPERATIONS } from "./orderbook";
import { HEALTH_OPERATIONS } from "./health";
import { listLedgerBatches } from "./ledger/list-batches";
import { CONTENT_OPERATIONS } from "./content";
import { PM_OPERATIONS } from "./pm";
import { CLAIM_OPERATIONS } from "./claims";
import { RESOLVE_OPERATIONS } from "./resolve";
import { NEGOTIATE_OPERATIONS } from "./negotiate";
import { REPUTATION_OPERATIONS } from "./reputation";
import { LINKING_OPERATIONS } from "./linking";
import { RELEASE_OPERATIONS } from "./release";

/**
 * Who an agent is, one group across four folders (auth: sign-in; registration: sign-up, claims, bindings; identity:
 * its own view; keys), listed here rather than in one of them so no folder imports its neighbours' operations.
 */
const IDENTITY_OPERATIONS: AnyOperation[] = [
  createAuthNonce,
  verifyWalletSignIn,
  getAuthDiscovery,
  getCredentialsDiscovery,
  getMcpDiscovery,
  getMe,
  getFillAllowance,
  listAgentCalls,
  registerAgent,
  getAgentClaim,
  claimAgent,
  resendClaimLink,
  bindEmail,
  verifyEmail,
  bindWallet,
  rotateKey,
  recoverKey,
];

export const OPERATIONS: AnyOperation[] = [
  getServerTime,
  ...DISCOVERY_OPERATIONS,
  ...REPUTATION_OPERATIONS,
  ...IDENTITY_OPERATIONS,
  ...LINKING_OPERATIONS,
  ...RELEASE_OPERATIONS,
  ...META_OPERATIONS,
  ...EVENTS_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...TRADE_OPERATIONS,
  ...ORDERBOOK_OPERATIONS,
  ...HEALTH_OPERATIONS,
  listLedgerBatches,
  ...CONTENT_OPERATIONS,
  ...PM_OPERATIONS,
  ...CLAIM_OPERATIONS,
  ...RESOLVE_OPERATIONS,
  ...NEGOTIATE_OPERATIONS,
];
