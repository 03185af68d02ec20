/**
 * The realtime catalogs served by GET /events/discovery, /market-data/discovery and /webhooks/discovery: every event
 * kind with its shape and an example, the subscription messages, heartbeats and the reconnect / gap-repair protocol.
 * docs/realtime.md and docs/webhooks.md say the same in prose; keep them in step.
 */
import { API_BASE_PATH } from "../../platform/versioning/versions";
import { STANDARD_RETRY_SCHEDULE_MS, JITTER } from "../../domain/webhooks/schedule";
import { WEBHOOK_EVENT_TYPES } from "../../domain/webhooks/store";

export const CATALOG_VERSION = "2026-11-27";

const envelope = {
  description: "Every server message, on SSE (the `data` of an event whose `event:` is the type) and WebSocket (one text frame), is one JSON object.",
  fields: {
    type: "event kind, e.g. execution:report, book:snapshot, book:delta, market:trade, market:price",
    channel: "execution | market:<marketId> | markets",
    seq: "integer; per account for execution, per market for market channels (both gap-free); ordering only on markets",
    at: "epoch milliseconds of the event",
    data: "the kind's payload (below); money and sizes are integer decimal strings, prices basis-point strings",
  },
};

const executionReport = {
  type: "execution:report",
  channel: "execution",
  description:
    "An order of the key's ledger account changed (accepted, filled, partially filled, cancelled, expired, rejected). Acceleration only: persist `seq`, close every gap with POST /orderbook/events; only a finalized fill or partial is canonical settlement truth.",
  data: {
    account: "ledger account, lower-case 0x address",
    seq: "per-account sequence, gap-free from 1 (same as the envelope seq)",
    at: "epoch ms",
    kind: "report kind (docs/engine.md)",
    orderId: "string",
    clientOrderId: "string, when the order had one",
    marketId: "committed-lane market id, decimal string",
    status: "order status after the event",
    "...": "fill fields (price in bps, size, fee, remaining) as the engine documents them in docs/engine.md",
  },
  example: {
    type: "execution:report",
    channel: "execution",
    seq: 42,
    at: 1_767_225_600_000,
    data: {
      account: "0x1111111111111111111111111111111111111111",
      seq: 42,
      at: 1_767_225_600_000,
      kind: "fill",
      orderId: "o_123",
      clientOrderId: "my-1",
      marketId: "7",
      status: "partially_filled",
      priceBps: "6200",
      size: "5000000",
      remaining: "5000000",
    },
  },
};

const marketKinds = [
  {
    type: "book:snapshot",
    channel: "market:<marketId>",
    description: "The full book at `seq`, sent first on every (re)subscription and again after any gap in the live events. Replace your book with it.",
    data: {
      marketId: "decimal string",
      seq: "the book's market seq",
      at: "epoch ms",
      bids: "[{priceBps, size}] best first",
      asks: "[{priceBps, size}] best first",
    },
  },
  {
    type: "book:delta",
    channel: "market:<marketId>",
    description: 'One price level changed; `size` is the level\'s new total, "0" removes it. Apply only when seq = last + 1.',
    data: { marketId: "decimal string", side: "bid | ask", priceBps: "1..9999", size: "integer string" },
  },
  {
    type: "market:trade",
    channel: "market:<marketId>",
    description: "A trade printed. Shares the market's seq with deltas and price frames.",
    data: { marketId: "decimal string", tradeId: "string", outcome: "0 = YES, 1 = NO", priceBps: "1..9999", size: "integer string", takerSide: "buy | sell" },
  },
  {
    type: "market:price",
    channel: "market:<marketId>",
    description: "A price frame: the outcome's last traded price after the event.",
    data: { marketId: "decimal string", outcome: "integer", priceBps: "1..9999" },
  },
];

/** The `markets` channel (api/transports/realtime/market-listings.ts): new markets as the negotiate flow lists them. */
const listingKinds = [
  {
    type: "market:listed",
    channel: "markets",
    description:
      "A market was just listed (commit-deploy answered, on either lane): it is in GET /discover/markets and tradeable. Live only: after a reconnect, read GET /discover/markets?sort=new for what you missed.",
    data: {
      address: "market address, lower-case 0x",
      chainId: "integer",
      marketId: "engine market id, decimal string (null for none)",
      settlement: "committed | onchain",
      pricingModel: "automated | ORDERBOOK",
      title: "string",
      category: "MarketCategory",
      outcomes: "outcome labels",
      creator: "creator's ledger account",
      state: "open",
      closeTime: "RFC 3339",
    },
  },
];

const controlKinds = [
  { type: "ready", transport: "sse", description: "First SSE event: {account, fromSeq, markets, listings, heartbeatMs, at}." },
  { type: "hello", transport: "websocket", description: "First frame when the upgrade carried no key: authenticate with an auth message." },
  { type: "authenticated", transport: "websocket", description: "{account, agentId, heartbeatMs, at}: the key is accepted." },
  { type: "subscribed", transport: "websocket", description: "{channel, fromSeq?, id}: sent before the channel's first message." },
  { type: "unsubscribed", transport: "websocket", description: "{channel, id}" },
  { type: "heartbeat", transport: "both", description: "{at} every heartbeatMs. Two missed heartbeats: reconnect and resume." },
  { type: "pong", transport: "websocket", description: "{id, at}: answer to a ping message." },
  {
    type: "error",
    transport: "both",
    description: "{code, detail, request?}: an API error code (docs/errors.md); the connection stays open unless it is an auth failure (close 4401).",
  },
];

export function heartbeatOf(heartbeatMs: number) {
  return {
    intervalMs: heartbeatMs,
    sse: "event `heartbeat`",
    websocket: 'frame {"type":"heartbeat"} plus a protocol ping; answer pings (every ws library does) or the server drops you after two intervals',
    clientRule: "no frame for 2 x intervalMs: reconnect and resume",
  };
}

const gapRepair = {
  persist: "Persist the last execution seq you processed, durably, per ledger account.",
  reconnect: [
    "SSE: reconnect with `Last-Event-ID: <last seq>` (EventSource does it for you) or `?fromSeq=<last seq + 1>`.",
    'WebSocket: authenticate, then {"type":"subscribe","channel":"execution","fromSeq":<last seq + 1>}.',
    "The server replays every committed report from that seq, then continues live: no gap, no duplicate.",
  ],
  onGap:
    "If you still see seq > last + 1 (or after a long outage), call POST /orderbook/events (MCP svc_list_order_events) from your last seq and apply those events before the stream's.",
  marketChannels:
    "Market channels are not replayed: every (re)subscription starts with book:snapshot; drop your book and apply deltas with seq = snapshot seq + 1, + 2, ... A gap in live events makes the server send a fresh snapshot.",
  duplicates: "Within one connection seqs never repeat; across reconnects ignore any seq <= your persisted one.",
};

export function eventsDiscovery(origin: string, cfg: { heartbeatMs: number; wsAuthTimeoutMs: number }) {
  const base = `${origin}${API_BASE_PATH}`;
  const wsBase = base.replace(/^http/, "ws");
  return {
    version: CATALOG_VERSION,
    envelope,
    transports: {
      sse: {
        url: `${base}/events/stream`,
        method: "GET",
        auth: "API key in Authorization: Bearer <key> or X-API-Key (any live key; it streams only its own ledger account)",
        query: {
          fromSeq: "first execution seq wanted (inclusive); omit for live only",
          markets: "comma-separated market ids to add market channels (at most 20)",
          execution: "false to leave the execution channel out",
          listings: "true to add the markets channel (market:listed)",
        },
        headers: { "Last-Event-ID": "last execution seq received; wins over fromSeq" },
        eventIds: "execution:report events carry `id: <seq>`; other events carry no id",
      },
      websocket: {
        url: `${wsBase}/ws`,
        auth: `API key in the upgrade's Authorization or X-API-Key header, or a first message {"type":"auth","apiKey":"svc_..."} within ${cfg.wsAuthTimeoutMs} ms (browsers). Keys in the URL are refused.`,
        clientMessages: [
          { type: "auth", shape: { type: "auth", apiKey: "svc_..." } },
          { type: "subscribe", shape: { type: "subscribe", channel: "execution", fromSeq: "optional integer >= 1", id: "optional echo" } },
          { type: "subscribe", shape: { type: "subscribe", channel: "market", marketId: "decimal string", id: "optional echo" } },
          { type: "subscribe", shape: { type: "subscribe", channel: "markets", id: "optional echo" } },
          { type: "unsubscribe", shape: { type: "unsubscribe", channel: "execution | market | markets", marketId: "for market", id: "optional" } },
          { type: "ping", shape: { type: "ping", id: "optional" } },
        ],
        closeCodes: {
          "4401": "authentication failed or timed out",
          "4429": "the agent holds its maximum of open streams",
          "1001": "server shutting down: reconnect and resume",
          "1009": "message over 64 KiB",
          "1013": "slow consumer (over 8 MiB unsent): reconnect and resume",
        },
        limits: { maxMessageBytes: 65536, maxMarketSubscriptions: 50 },
      },
      webhooks: {
        discovery: `${base}/webhooks/discovery`,
        description: "Signed HTTP POSTs (Standard Webhooks) of execution reports: the fallback when no connection can stay open.",
      },
    },
    channels: [
      { name: "execution", topic: "execution:<ledgerAccount>", kinds: ["execution:report"], sequence: "per account, gap-free from 1", replay: true },
      {
        name: "market",
        topic: "market:<marketId>",
        kinds: marketKinds.map((k) => k.type),
        sequence: "per market, shared by every kind, gap-free",
        replay: false,
        snapshotFirst: true,
        discovery: `${base}/market-data/discovery`,
      },
      { name: "markets", topic: "markets", kinds: listingKinds.map((k) => k.type), sequence: "ordering only (live, not replayed)", replay: false },
    ],
    eventKinds: [executionReport, ...marketKinds, ...listingKinds],
    controlMessages: controlKinds,
    heartbeat: heartbeatOf(cfg.heartbeatMs),
    reconnect: gapRepair,
    reconcile: { operation: "POST /orderbook/events", mcpTool: "svc_list_order_events" },
    mcp: "Streams are REST/WebSocket only; there is no MCP tool for them.",
  };
}

export function marketDataDiscovery(origin: string, cfg: { heartbeatMs: number }) {
  const base = `${origin}${API_BASE_PATH}`;
  return {
    version: CATALOG_VERSION,
    envelope,
    subscribe: {
      websocket: { type: "subscribe", channel: "market", marketId: "decimal string" },
      sse: `${base}/events/stream?markets=<id>,<id>&execution=false`,
      listings: { websocket: { type: "subscribe", channel: "markets" }, sse: `${base}/events/stream?listings=true&execution=false` },
    },
    eventKinds: [...marketKinds, ...listingKinds],
    sequence: "per market, gap-free, shared by book:delta, market:trade and market:price; the snapshot carries the seq it is current at",
    resync: gapRepair.marketChannels,
    heartbeat: heartbeatOf(cfg.heartbeatMs),
    rest: {
      depth: `${base}/discover/markets/{address}/depth`,
      trades: `${base}/discover/markets/{address}/trades`,
      chart: `${base}/discover/markets/{address}/chart`,
    },
    units: { priceBps: "basis points of probability, 1..9999, string", size: "outcome-token smallest units, integer string" },
  };
}

export function webhooksDiscovery(origin: string) {
  const base = `${origin}${API_BASE_PATH}`;
  return {
    version: CATALOG_VERSION,
    scheme: "Standard Webhooks (https://www.standardwebhooks.com), symmetric v1 signatures (HMAC-SHA256)",
    scope: "webhooks:manage",
    eventTypes: [
      {
        type: "execution:report",
        description: "One execution report of the subscription's ledger account.",
        data: { channel: "execution", seq: "per-account seq", at: "epoch ms", report: executionReport.data },
      },
      { type: "webhook.test", description: "Sent by POST /webhooks/{webhookId}/test.", data: { webhookId: "string", message: "string" } },
    ].filter((e) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e.type)),
    body: { type: "event type", timestamp: "ISO 8601 instant the event was queued", data: "the event's payload" },
    headers: {
      "webhook-id": "message id (msg_...), the same on every retry of one message: deduplicate on it",
      "webhook-timestamp": "Unix seconds of this attempt; reject if more than 5 minutes from your clock",
      "webhook-signature": "space-separated `v1,<base64>` signatures, one per live secret (several during a rotation)",
    },
    verify: "new Webhook(secret).verify(rawBody, headers) from the `standardwebhooks` package (any language's Standard Webhooks library)",
    secrets:
      "whsec_ + base64 of 32 bytes; shown once at creation and at rotation. Rotation keeps the previous secrets signing for graceSeconds (default 86400).",
    retries: {
      scheduleSeconds: [0, ...STANDARD_RETRY_SCHEDULE_MS.map((ms) => ms / 1000)],
      attempts: STANDARD_RETRY_SCHEDULE_MS.length + 1,
      jitter: `+-${JITTER * 100} %`,
      success: "any 2xx within 15 s",
      retryAfter: "a Retry-After header on a failed answer delays the next attempt (never earlier than the schedule, at most 1 day)",
      gone: "410 Gone disables the subscription and cancels its pending deliveries; PATCH {enabled:true} re-enables it",
      redirects: "not followed (count as failures)",
    },
    ordering: "Not guaranteed across messages; order by data.seq and repair gaps with POST /orderbook/events.",
    targets: "http(s) URLs whose host resolves to public addresses only (checked at save and at every connect)",
    operations: {
      create: `POST ${base}/webhooks`,
      list: `GET ${base}/webhooks`,
      get: `GET ${base}/webhooks/{webhookId}`,
      update: `PATCH ${base}/webhooks/{webhookId}`,
      delete: `DELETE ${base}/webhooks/{webhookId}`,
      rotateSecret: `POST ${base}/webhooks/{webhookId}/rotate-secret`,
      deliveries: `GET ${base}/webhooks/{webhookId}/deliveries`,
      test: `POST ${base}/webhooks/{webhookId}/test`,
    },
  };
}
