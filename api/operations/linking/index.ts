/** Identity linking (docs/identity.md): one person's agents and wallets under one identity. */
import type { AnyOperation } from "../../registry/types";
import { approveLinks } from "./approve-links";
import { generateLinkCode } from "./generate-link-code";
import { getAgentIdentity } from "./get-agent-identity";
import { listPendingLinks } from "./list-pending-links";
import { submitLinkConsent } from "./submit-link-consent";
import { unlinkIdentityWallets } from "./unlink";

export const LINKING_OPERATIONS: AnyOperation[] = [
  getAgentIdentity,
  generateLinkCode,
  submitLinkConsent,
  listPendingLinks,
  approveLinks,
  unlinkIdentityWallets,
];
