/**
 * Time on a local chain (docs/dev-chain.md), mounted only when the chain is local and the service's clock is movable:
 *   GET  /admin/v1/time                      {now, offsetMs, offset, chain}
 *   POST /admin/v1/time/advance {duration}   moves chain and service forward, running what came due on the way
 * On a live chain these paths do not exist (404), and `npm run admin -- time` refuses before asking.
 */
import { z } from "zod";
import { movable } from "../../../relayer/clock";
import { ChainClockError, chainHead } from "../../domain/dev-chain/chain-time";
import { gtdExpirySource, lifecycleSource } from "../../domain/dev-chain/due-sources";
import { formatDuration, parseDuration } from "../../domain/dev-chain/duration";
import { isLocalChain } from "../../../relayer/local-chain";
import { DevTime } from "../../domain/dev-chain/time-advance";
import { ApiError } from "../../platform/errors/api-error";
import { adminBody, adminJson, defineAdminRoutes } from "./define";

/** The longest single advance (a year): a typo like `3000d` is refused rather than obeyed. */
const MAX_ADVANCE_MS = 366 * 86_400_000;

const advanceBody = z.strictObject({
  duration: z
    .string()
    .min(1)
    .max(32)
    .transform((v, c) => {
      const ms = parseDuration(v);
      if (ms === null) c.addIssue({ code: "custom", message: "must be a duration like 90s, 15m, 2h, 3d or 1h30m" });
      else if (ms <= 0) c.addIssue({ code: "custom", message: "must be more than 0: time only moves forward" });
      else if (ms > MAX_ADVANCE_MS) c.addIssue({ code: "custom", message: "must be at most 366d per advance" });
      return ms ?? 0;
    }),
});

export const timeRoutes = defineAdminRoutes({
  name: "time",
  enabled: ({ ctx }) => isLocalChain(ctx.config) && movable(ctx.clock) !== null,
  mount(r, { ctx, services }) {
    const clock = movable(ctx.clock)!;
    const exchange = () => services.venue.exchange;
    const time = new DevTime({
      db: ctx.db,
      clock,
      rpcUrl: ctx.config.rpcUrl,
      sources: [gtdExpirySource(exchange), lifecycleSource(exchange)],
      log: ctx.log.child({ part: "dev-time" }),
      afterAdvance: () => services.webhooks.wake(),
    });
    r.get("/time", async (c) => {
      const chain = await chainHead(ctx.config.rpcUrl).catch(() => null);
      return adminJson(c, { now: clock.now(), offsetMs: clock.offsetMs(), offset: formatDuration(clock.offsetMs()), chain });
    });
    r.post("/time/advance", async (c) => {
      const { duration } = await adminBody(c, advanceBody);
      try {
        const done = await time.advance(duration);
        return adminJson(c, { ...done, offset: formatDuration(done.offsetMs) });
      } catch (err) {
        if (err instanceof ChainClockError) throw new ApiError("SERVICE_UNAVAILABLE", `${err.message}; nothing moved`, {}, { "Retry-After": "5" });
        throw err;
      }
    });
  },
});
