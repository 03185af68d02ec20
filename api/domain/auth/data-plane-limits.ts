/**
 * Market-surface publishing limits per market (GET /me `dataPlane`). The spec names the fields, not the numbers;
 * these are ours (docs/auth.md).
 */
export const DATA_PLANE_LIMITS = {
  framesPerMinutePerMarket: 60,
  burstFramesPerTenSecondsPerMarket: 20,
  maxActiveSeriesPerActor: 50,
} as const;
