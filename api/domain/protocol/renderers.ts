/** The native renderer catalog (`GET /discover/renderers`): which market shapes a client can draw natively (a UI hint). */
export function buildRenderers() {
  return {
    renderers: [
      { id: "binary-yes-no", outcomes: 2, pricingModels: ["automated", "ORDERBOOK"], widgets: ["price", "depth", "chart", "trades", "holders"] },
      { id: "ternary", outcomes: 3, pricingModels: ["automated"], widgets: ["price", "depth", "chart", "trades", "holders"] },
    ],
  };
}
