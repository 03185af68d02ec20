/**
 * Trade defaults published in GET /auth-discovery (`tradeDefaults`) and applied by the trading operations: one module
 * so the document and the behaviour cannot drift. Basis points: 100 = 1 %.
 */
export const TRADE_DEFAULTS = {
  /** Slippage tolerance applied when a quote/prepare request names none. */
  slippageBpsDefault: 100,
  /** Largest slippage tolerance a request may name. */
  slippageBpsMax: 1000,
  /** How often a client should refresh a quote it is about to act on. */
  recommendedRefreshMs: 2000,
} as const;
