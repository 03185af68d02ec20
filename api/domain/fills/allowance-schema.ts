/** zod schema of MeFillAllowance (spec "Fill allowance"), shared by GET /me and GET /fills/allowance. */
import { z } from "zod";

const count = z.number().int().min(0);

export const fillAllowanceSchema = z.object({
  enabled: z.boolean(),
  freePerPeriod: count,
  freePerWeek: count.nullable(),
  freeUsed: count,
  freeRemaining: count,
  paidRemaining: count,
  remaining: count,
  period: z.object({ kind: z.enum(["fixed-week", "calendar-month"]), startsAt: z.string(), endsAt: z.string(), durationDays: z.number().int().positive() }),
  resetsAt: z.string(),
  freePerMonth: z.number().int().describe("deprecated; 0 under fixed-week"),
  resetsOn: z.string().describe("deprecated alias of resetsAt"),
  purchase: z.object({
    pmPerFill: count,
    bundles: z.array(
      z.object({
        usd: z.number().positive(),
        usdCents: z.number().int().positive(),
        pm: z.number().int().positive(),
        fills: count,
        featured: z.literal(true).optional(),
      }),
    ),
  }),
});
