/** Response pieces the ranking reads share (GET /discover/leaderboard, GET /discover/traders/{address}). */
import { z } from "zod";
import { PERIODS } from "../../domain/ranking/periods";

export const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
export const wei = z.string().regex(/^-?\d+$/);
export const iso = z.string().describe("ISO 8601 UTC instant");

/** A period's kind and bounds. */
export const periodSchema = z.object({ kind: z.enum(PERIODS), start: iso.nullable(), end: iso });

/** A trader's figures over one period, as the board and the profile show them. */
export const traderFigureFields = {
  pnl: decimal.describe("profit and loss in whole units of `measurement.unit`"),
  volume: decimal,
  returnPercent: decimal.nullable().describe("P&L over the collateral paid into trades in the period, in percent"),
  roiPercent: decimal.nullable().describe("realised P&L of the calls closed in the period over what they cost, in percent"),
  settledMarkets: z.number().int(),
  closedCalls: z.number().int().nullable(),
  wins: z.number().int(),
  winRatePercent: decimal.nullable(),
  markets: z.number().int().describe("markets traded in the period"),
  performance: z.object({ pnl: wei, return: decimal.nullable(), volumeWei: wei }),
  unavailableReasons: z.array(z.string()),
};
