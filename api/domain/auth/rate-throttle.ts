/** The operator's incident throttle on an agent (docs/admin.md; applied in api/platform/rate-limit/limits.ts). */
import type { SqlRunner } from "../../../relayer/db/client";
import type { RateThrottle } from "../../platform/rate-limit/limits";

/** Sets (or, with null, lifts) the throttle; false when there is no such agent. */
export async function setRateThrottle(db: SqlRunner, agentId: string, throttle: RateThrottle | null): Promise<boolean> {
  const rows = await db.query(
    `UPDATE api_agents SET rate_throttle_percent = $2, rate_throttle_reason = $3, rate_throttle_until = $4 WHERE id = $1 RETURNING id`,
    [agentId, throttle?.percent ?? null, throttle?.reason ?? null, throttle?.until ?? null],
  );
  return rows.length > 0;
}
