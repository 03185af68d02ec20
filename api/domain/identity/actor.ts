/** The calling agent as identity linking and the participation release see it: its id, wallet and ledger account. */
import type { ServiceContext } from "../../context";
import { ledgerAccountFor } from "../auth/ledger-account";
import type { KeyPrincipal } from "../auth/principal";
import type { Actor } from "./links";

export async function actorOf(ctx: ServiceContext, p: KeyPrincipal): Promise<Actor> {
  return { agentId: p.agentId, walletAddress: p.walletAddress?.toLowerCase() ?? null, ledgerAccount: await ledgerAccountFor(ctx, p) };
}
