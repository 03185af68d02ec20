/**
 * The rules of PM's participation release (docs/participation-release.md), in one place: what a unit is worth, when
 * a day earns one, how long a lane stays active, how often an identity may be paid, how long a voucher lives; and the
 * state sets and reason codes of the contract.
 */
import type { ErrorCode } from "../../platform/errors/codes";

/** PM earned by an identity for a UTC day with at least one qualifying trade (10 PM, 6 decimals). */
export const UNIT_WEI = 10_000_000n;
export const DAY_MS = 86_400_000;
/** A lane is active while its last qualifying trade is younger than this. */
export const ACTIVE_WINDOW_MS = 7 * DAY_MS;
/** At most one paid distribution per identity in this time. */
export const CLAIM_CADENCE_MS = 24 * 3_600_000;
/** A voucher's life: the transaction must be mined before it ends. */
export const VOUCHER_TTL_MS = 30 * 60_000;
/** After a voucher expired with a transaction reported but no receipt, how long the service still looks for one. */
export const FINALITY_GRACE_MS = 10 * 60_000;

/** The UTC day (days since the epoch) of an instant. */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);

export const DEPLOYMENT_STATES = ["not_deployed", "route_not_deployed", "inactive", "active", "payment_paused", "degraded", "quarantined", "retired"] as const;
export type DeploymentState = (typeof DEPLOYMENT_STATES)[number];
export const MEMBER_STATUSES = ["unknown", "not_linked", "inactive", "active"] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export const MEMBER_ROLES = ["root", "linked_wallet", "linked_agent"] as const;
export const LANE_STATES = ["unavailable", "not_activated", "activation_pending", "active", "dormant"] as const;
export type LaneState = (typeof LANE_STATES)[number];
export const DISTRIBUTION_STATUSES = ["none", "prepared", "submitted", "expired_awaiting_finality", "projection_pending", "paid", "unpaid", "failed"] as const;
export type DistributionStatus = (typeof DISTRIBUTION_STATUSES)[number];
export const DELIVERY_MODES = ["self_claim", "protocol_push"] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];
export const RECIPIENT_RELATIONS = ["self", "root", "another_linked_member"] as const;
export type RecipientRelation = (typeof RECIPIENT_RELATIONS)[number];

export const PARTICIPATION_REASON_CODES = [
  "PARTICIPATION_RELEASE_NOT_DEPLOYED",
  "PARTICIPATION_RELEASE_ROUTE_NOT_DEPLOYED",
  "PARTICIPATION_RELEASE_INACTIVE",
  "PARTICIPATION_DISTRIBUTION_PAUSED",
  "PARTICIPATION_MONEY_PATH_INCOMPLETE",
  "PARTICIPATION_LEDGER_ACCOUNTING_INVALID",
  "PARTICIPATION_ROUTE_DEGRADED",
  "PARTICIPATION_ROUTE_QUARANTINED",
  "PARTICIPATION_INVENTORY_LOW",
  "ACTIVE_VERIFIED_IDENTITY_REQUIRED",
  "CURRENT_IDENTITY_MEMBERSHIP_REQUIRED",
  "AGENT_OPERATING_WALLET_NOT_LINKED",
  "IDENTITY_INTEGRITY_UNKNOWN",
  "NO_PARTICIPATION_RELEASE_CREDITS",
  "NEW_PARTICIPATION_RELEASE_UNITS_EXHAUSTED",
  "PARTICIPATION_CLAIM_CADENCE_ACTIVE",
  "PARTICIPATION_IDENTITY_ATTESTATION_REQUIRED",
  "PARTICIPATION_DISTRIBUTION_ZERO_DELTA",
  "PARTICIPATION_DISTRIBUTION_ALREADY_PREPARED",
  "PARTICIPATION_DISTRIBUTION_RECIPIENT_STALE",
  "PARTICIPATION_DISTRIBUTION_VOUCHER_EXPIRED",
  "PARTICIPATION_DISTRIBUTION_EVENT_MISMATCH",
  "PARTICIPATION_DISTRIBUTION_FINALITY_PENDING",
] as const;
export type ParticipationReasonCode = (typeof PARTICIPATION_REASON_CODES)[number];

/** The reason codes that are also refusals of a call (api/platform/errors/codes.ts gives their statuses). */
export type RefusalCode = Extract<ParticipationReasonCode, ErrorCode>;
