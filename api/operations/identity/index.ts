/** The identity, registration, key and wallet-proof operations (docs/auth.md), added to OPERATIONS in one line. */
import type { AnyOperation } from "../../registry/types";
import { createAuthNonce } from "../auth/create-nonce";
import { verifyWalletSignIn } from "../auth/verify-wallet-proof";
import { getAuthDiscovery } from "../auth/get-auth-discovery";
import { getCredentialsDiscovery } from "../auth/get-credentials";
import { getMe } from "./get-me";
import { getFillAllowance } from "./get-fills-allowance";
import { listAgentCalls } from "./list-agent-calls";
import { getMcpDiscovery } from "../registration/get-mcp-discovery";
import { registerAgent } from "../registration/register";
import { getAgentClaim } from "../registration/get-claim";
import { claimAgent } from "../registration/claim-agent";
import { resendClaimLink } from "../registration/resend-claim-link";
import { bindEmail } from "../registration/bind-email";
import { verifyEmail } from "../registration/verify-email";
import { bindWallet } from "../registration/bind-wallet";
import { rotateKey } from "../keys/rotate-key";
import { recoverKey } from "../keys/recover-key";

export const IDENTITY_OPERATIONS: AnyOperation[] = [
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
