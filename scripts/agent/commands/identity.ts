/** pm-agent's identity commands: identity linking (docs/identity.md): one person's agents, each a profile here, under one identity. */
import { type CliContext, type Json, table, UsageError } from "../context";

export function addIdentityCommands({ program, client, show }: CliContext): void {
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
}
