/**
 * GET /discover/markets/pending-resolution: markets past trading and not final, from the lifecycles the engine holds
 * (the authority on state and deadlines) joined with the catalog (title, category, address). Ordered by the next
 * action's deadline, then market id; the cursor is that position, opaque to clients.
 */
import type { LifecycleView } from "../../../relayer/engine";
import type { ServiceContext } from "../../context";
import { ApiError } from "../../platform/errors/api-error";
import { effectiveState } from "./actions";
import { catalogByMarketIds } from "./catalog-ids";
import { lifecycleOut, type LifecycleReads } from "./market-lifecycle";

export const PENDING_STATES = ["closed", "creator_proposal", "challenge", "creator_mia", "human_voting", "council_review"] as const;

interface Position {
  deadline: number;
  marketId: bigint;
}

function encode(p: Position): string {
  return Buffer.from(`${p.deadline}:${p.marketId}`).toString("base64url");
}

function decode(cursor: string): Position {
  const m = /^(\d{1,16}):(\d{1,20})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!m) throw new ApiError("INVALID_PAYLOAD", "cursor is not a nextCursor this server made", { field: "cursor", location: "query" });
  return { deadline: Number(m[1]), marketId: BigInt(m[2]!) };
}

const NO_DEADLINE = Number.MAX_SAFE_INTEGER;
const keyOf = (l: LifecycleView): Position => ({ deadline: l.nextActionDeadline ?? NO_DEADLINE, marketId: BigInt(l.marketId) });
const before = (a: Position, b: Position) => a.deadline < b.deadline || (a.deadline === b.deadline && a.marketId < b.marketId);

export async function pendingResolution(
  ctx: ServiceContext,
  engine: LifecycleReads,
  q: { category?: string; marketState?: (typeof PENDING_STATES)[number]; cursor?: string; limit: number },
) {
  const now = ctx.clock.now();
  const after = q.cursor === undefined ? null : decode(q.cursor);
  const pending = engine
    .lifecycles()
    .map((l) => ({ l, state: effectiveState(l, now) }))
    .filter(({ state }) => (PENDING_STATES as readonly string[]).includes(state))
    .filter(({ state }) => q.marketState === undefined || state === q.marketState)
    .sort((a, b) => (before(keyOf(a.l), keyOf(b.l)) ? -1 : 1));
  const markets = await catalogByMarketIds(
    ctx.db,
    ctx.config.CHAIN_ID,
    pending.map((p) => BigInt(p.l.marketId)),
    now,
  );
  const rows = pending.flatMap(({ l, state }) => {
    const market = markets.get(BigInt(l.marketId));
    if (!market) return [];
    if (q.category !== undefined && market.category !== q.category.toUpperCase()) return [];
    if (after !== null && !before(after, keyOf(l))) return [];
    return [{ l, state, market }];
  });
  const served = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  const last = served[served.length - 1];
  return {
    markets: served.map(({ l, state, market }) => ({
      ...lifecycleOut({ market, marketId: BigInt(l.marketId), lifecycle: l }),
      title: market.title,
      category: market.category,
      effectiveState: state,
    })),
    count: served.length,
    hasMore,
    nextCursor: hasMore && last ? encode(keyOf(last.l)) : null,
  };
}
