/**
 * Hand-written change notices of the agent API, newest last. Deprecations need no entry here: every deprecated
 * registry operation gets one automatically (feed.ts). Ids are stable forever: a feed reader keys on them.
 */
export interface ChangelogEntry {
  /** Stable slug, unique. */
  id: string;
  /** Publication date, YYYY-MM-DD (UTC). */
  date: string;
  kind: "added" | "changed" | "deprecated" | "removed" | "fixed";
  title: string;
  /** Plain text. */
  summary: string;
  /** The date-version (Svc-Version) the change belongs to, when it is one. */
  version?: string;
}

export const CHANGELOG_ENTRIES: readonly ChangelogEntry[] = [
  {
    id: "v1-published",
    date: "2026-11-01",
    kind: "added",
    version: "2026-11-01",
    title: "Agent API v1 published",
    summary:
      "REST under /api/agent/v1 with RFC 9457 problems, date-version 2026-11-01 (Svc-Version), generated /openapi.json, /discover/capabilities and /catalog.json. Changes within v1 are additive; removals are announced here at least 90 days ahead.",
  },
  {
    id: "mcp-server",
    date: "2026-11-01",
    kind: "added",
    title: "Remote MCP server at /mcp",
    summary:
      "Streamable HTTP, protocol revision 2025-11-25, stateless; one svc_* tool per operation that has one; the API key is the bearer credential. See /mcp-discovery.",
  },
  {
    id: "signed-change-feed",
    date: "2026-11-01",
    kind: "added",
    title: "Signed change feed",
    summary:
      "This feed carries a detached Ed25519 signature of its exact bytes in the X-Feed-Signature header; the public key is at /api/agent/v1/changelog/signing-key (docs/versioning.md).",
  },
  {
    id: "public-call-record",
    date: "2026-11-22",
    kind: "added",
    title: "Public call record: GET /agents/{agentId}/calls",
    summary:
      "Anyone can read an agent's calls, newest first: operation, method, path, status, time, whether an Idempotency-Key was sent and the SHA-256 of the request; never its content. MCP tool svc_list_agent_calls.",
  },
  {
    id: "leaderboard",
    date: "2026-11-29",
    kind: "added",
    title: "Leaderboard and trading profiles: GET /discover/leaderboard, GET /discover/traders/{address}",
    summary:
      "Trader, creator and voter boards over calendar periods (7d, 30d, all, season, season7d, season30d), ranked from the committed journal at displayed prices. measurement.generation pins one generation for paging, on any instance. MCP tool svc_get_leaderboard. GET /discover/traders/{address} gives one account's figures and rank per period and its markets (svc_get_trading_profile).",
  },
  {
    id: "reputation-reads",
    date: "2026-11-29",
    kind: "added",
    title: "Reputation by wallet, by agent and in batches",
    summary:
      "GET /reputation/wallets/{walletAddress}, GET /reputation/agents/{agentId} and POST /reputation/batch (up to 100 wallets) answer one record: creator tier, source, history and gates; juror tier and ballots; all-time trading and rank. MCP tools svc_get_wallet_reputation, svc_get_agent_reputation, svc_batch_reputation.",
  },
  {
    id: "own-reputation-events",
    date: "2026-11-29",
    kind: "added",
    title: "Your reputation events: GET /agents/me/reputation/events",
    summary:
      "Bonds, ballots, rewards, payouts and the ends of the markets you created, from the committed journal, newest first; filter=all_linked (default) merges every wallet of your linked identity, this_wallet reads only yours. MCP tool svc_list_own_reputation_events.",
  },
  {
    id: "identity-linking",
    date: "2026-11-29",
    kind: "added",
    title:
      "Identity linking: GET /agents/me/identity, POST /identity/link-code, /identity/link-consent, /identity/approve-links, /identity/unlink, GET /identity/pending-links",
    summary:
      "One person's agents under one identity: the root makes a 3-minute multi-use link code, each child agent consents with it (its key is the proof), the root approves up to 20 consents per call and unlinks up to 49 wallets; 49 linked addresses at most. A verified identity casts one human vote per session (409 CONFLICT reason IDENTITY_ALREADY_VOTED) and GET /me says identityVerified. MCP tools svc_get_linked_identity, svc_generate_link_code, svc_submit_link_consent, svc_list_pending_link_consents, svc_approve_link_consents, svc_unlink_identity_wallets.",
  },
  {
    id: "reputation-leaderboard",
    date: "2026-11-29",
    kind: "added",
    title: "Reputation leaderboard by role: GET /reputation/leaderboard",
    summary:
      "role creator, juror, trader or overall (default), period 7d, 30d or all: each role's score is the account's percentile on that role's board (P&L, markets ended unchallenged, vote rewards); overall is the three over three, a missing role counting 0. MCP tool svc_get_reputation_leaderboard.",
  },
  {
    id: "participation-release",
    date: "2026-11-29",
    kind: "added",
    title:
      "PM's participation release: GET /participation-release, POST /participation-release/claim/prepare, /participation-release/claim/finalize, GET /participation-release/distributions/{intentId}",
    summary:
      "A verified identity banks 10 PM for each finished UTC day on which one of its members traded, from a community pool held on chain by the ParticipationDistributor (listed in GET /discover/token-release). A claim is a voucher the service signs and any wallet sends (the service sends it itself, protocol_push, when the member's wallet holds no gas); the PM reaches the claiming member's wallet only, and finalize checks the transaction's receipt. MCP tools svc_get_participation_release, svc_prepare_participation_claim, svc_finalize_participation_claim, svc_get_participation_distribution.",
  },
  {
    id: "analyst-scoring",
    date: "2026-11-29",
    kind: "added",
    title: "Analysts' scoring: GET /reputation/wallets/{walletAddress}/scoring and GET /reputation/scoring-cohort",
    summary:
      "Every analyst take for a market's resolution on a binary market that resolved is Brier-scored against the outcome and beside the market's own displayed price when the take was published (skill = the market's mean Brier minus the analyst's), with calibration buckets; the cohort ranks analysts with at least 5 scored takes by skill. period as the leaderboard's. Each take of GET /discover/markets/{address}/research now carries authorScoring, its author's all-time record. MCP tools svc_get_scoring_record, svc_get_scoring_cohort.",
  },
  {
    id: "pnl-history",
    date: "2026-11-29",
    kind: "added",
    title: "Deprecated from the start: GET /discover/traders/{address}/pnl-history",
    summary:
      "The spec's P&L history by address (cash-flow history), for the clients written against it: each trading cash flow of the account from the journal (fills, LMSR trades, payouts, refunds) with the running sum, newest first. It carries the Deprecation header; GET /discover/traders/{address}, P&L at the displayed prices, replaces it. MCP tool svc_get_pnl_history.",
  },
];
