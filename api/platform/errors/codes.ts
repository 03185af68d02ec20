/**
 * Every error code the API answers with, its HTTP status and title. The codes of the spec's error table are binding;
 * the ones marked "ours" fill places where the spec says "not shown" (see docs/errors.md).
 */
export const ERROR_CODES = {
  INVALID_PAYLOAD: { status: 400, title: "Invalid payload" },
  CONTENT_BLOCKED: { status: 400, title: "Content blocked" },
  PURCHASE_NOT_A_BUNDLE: { status: 400, title: "Purchase is not a bundle" },
  IDEMPOTENCY_KEY_REQUIRED: { status: 400, title: "Idempotency-Key header required" }, // ours
  AUTH_REQUIRED: { status: 401, title: "Authentication required" },
  WALLET_AUTH_INVALID: { status: 401, title: "Wallet authentication invalid" },
  FILL_ALLOWANCE_EXHAUSTED: { status: 402, title: "Fill allowance exhausted" },
  PAYMENT_REQUIRED: { status: 402, title: "Payment required" }, // ours: x402 (docs/pm-purchase.md)
  FORBIDDEN: { status: 403, title: "Forbidden" },
  EMAIL_NOT_VERIFIED: { status: 403, title: "Email not verified" },
  WALLET_REQUIRED: { status: 403, title: "Wallet required" },
  WALLET_ADDRESS_MISMATCH: { status: 403, title: "Wallet address mismatch" },
  FEATURE_DISABLED: { status: 403, title: "Feature disabled" },
  SERVICE_UNAVAILABLE_IN_REGION: { status: 403, title: "Service unavailable in region" },
  NOT_FOUND: { status: 404, title: "Not found" }, // ours: unknown route
  MARKET_NOT_FOUND: { status: 404, title: "Market not found" },
  PARENT_NOT_FOUND: { status: 404, title: "Parent not found" },
  AGENT_NOT_FOUND: { status: 404, title: "Agent not found" },
  ORDER_NOT_FOUND: { status: 404, title: "Order not found" }, // ours (engine)
  METHOD_NOT_ALLOWED: { status: 405, title: "Method not allowed" }, // ours
  STALE_UPDATE: { status: 409, title: "Stale update" },
  AGENT_ALREADY_EXISTS: { status: 409, title: "Agent already exists" },
  EMAIL_ALREADY_REGISTERED: { status: 409, title: "Email already registered" },
  NAME_TAKEN: { status: 409, title: "Name taken" },
  CONFLICT: { status: 409, title: "Conflict" },
  INSUFFICIENT_BALANCE: { status: 409, title: "Insufficient available balance" }, // ours (engine)
  IDEMPOTENCY_KEY_REUSED: { status: 409, title: "Idempotency key reused with a different body" }, // ours
  IDEMPOTENCY_REQUEST_IN_FLIGHT: { status: 409, title: "A request with this idempotency key is in flight" }, // ours
  MARKET_CLOSED: { status: 410, title: "Market closed" },
  EXPIRED_TOKEN: { status: 410, title: "Expired token" },
  PAYLOAD_TOO_LARGE: { status: 413, title: "Payload too large" }, // ours: the spec names no request-size limit
  HEADERS_TOO_LARGE: { status: 431, title: "Request header fields too large" }, // ours: Node's header limit
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: "Unsupported media type" }, // ours
  CREATOR_WINDOW_ELAPSED: { status: 409, title: "Creator window elapsed" },
  CHALLENGE_WINDOW_CLOSED: { status: 409, title: "Challenge window closed" },
  // ours: market creation (docs/market-creation.md "Refusals")
  EXTERNAL_ID_TAKEN: { status: 409, title: "External id already used by this creator" },
  CLOSE_TIME_OUT_OF_RANGE: { status: 400, title: "closeTime out of range" },
  COLLATERAL_NOT_SERVED: { status: 400, title: "Collateral not served" },
  MARKET_SHAPE_UNSUPPORTED: { status: 400, title: "Pricing model and outcome count not supported on this lane" },
  RESOLUTION_SOURCE_UNSUPPORTED: { status: 400, title: "Resolution source not supported" },
  SEED_ABOVE_LIMIT: { status: 400, title: "Seed above the tier's limit" },
  CREATION_NOT_ALLOWED: { status: 403, title: "Market creation not allowed" },
  CONCURRENT_MARKET_LIMIT: { status: 409, title: "Concurrent market limit reached" },
  NEGOTIATION_NOT_FOUND: { status: 404, title: "Negotiation not found" },
  NEGOTIATION_STATE: { status: 409, title: "Negotiation not in a state for this step" },
  NEGOTIATION_EXPIRED: { status: 410, title: "Negotiation expired" },
  DEPLOY_RECEIPT_MISMATCH: { status: 409, title: "Deployment receipt does not match the accepted terms" },
  // the contract's participation reason codes, as refusals of a claim (docs/participation-release.md); statuses ours
  PARTICIPATION_RELEASE_NOT_DEPLOYED: { status: 503, title: "Participation release not deployed" },
  PARTICIPATION_DISTRIBUTION_PAUSED: { status: 503, title: "Participation distribution paused" },
  PARTICIPATION_ROUTE_DEGRADED: { status: 503, title: "Participation route degraded" },
  PARTICIPATION_ROUTE_QUARANTINED: { status: 503, title: "Participation route quarantined" },
  PARTICIPATION_INVENTORY_LOW: { status: 503, title: "Participation inventory low" },
  ACTIVE_VERIFIED_IDENTITY_REQUIRED: { status: 403, title: "Active verified identity required" },
  CURRENT_IDENTITY_MEMBERSHIP_REQUIRED: { status: 403, title: "Current identity membership required" },
  AGENT_OPERATING_WALLET_NOT_LINKED: { status: 403, title: "Agent operating wallet not linked" },
  NO_PARTICIPATION_RELEASE_CREDITS: { status: 409, title: "No participation release credits" },
  NEW_PARTICIPATION_RELEASE_UNITS_EXHAUSTED: { status: 409, title: "New participation release units exhausted" },
  PARTICIPATION_CLAIM_CADENCE_ACTIVE: { status: 409, title: "Participation claim cadence active" },
  PARTICIPATION_DISTRIBUTION_ZERO_DELTA: { status: 409, title: "Nothing left to distribute" },
  PARTICIPATION_DISTRIBUTION_ALREADY_PREPARED: { status: 409, title: "Distribution already prepared" },
  PARTICIPATION_DISTRIBUTION_RECIPIENT_STALE: { status: 409, title: "Distribution recipient stale" },
  PARTICIPATION_DISTRIBUTION_VOUCHER_EXPIRED: { status: 410, title: "Distribution voucher expired" },
  PARTICIPATION_DISTRIBUTION_EVENT_MISMATCH: { status: 409, title: "Distribution event mismatch" },
  DISTRIBUTION_NOT_FOUND: { status: 404, title: "Distribution not found" }, // ours
  RATE_LIMITED: { status: 429, title: "Rate limited" },
  INTERNAL_ERROR: { status: 500, title: "Internal error" },
  SERVICE_UNAVAILABLE: { status: 503, title: "Service unavailable" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
