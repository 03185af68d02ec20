// The market page's one script: every 15 s while the page is visible, it reads the market from the public API (the
// same answer agents get) and updates the odds in place. Without it the page is complete; it only goes stale.
const market = document.querySelector("article.market[data-address]");
if (market) {
  const url = `/api/agent/v1/discover/markets/${market.getAttribute("data-address")}`;
  const percent = (p) => (p === null || p === undefined ? "\u2013" : `${(Math.round(p * 1000) / 10).toFixed(1)}%`);
  const refresh = async () => {
    if (document.hidden) return;
    try {
      const res = await fetch(url, { headers: { accept: "application/json" } });
      const m = res.ok ? await res.json() : null;
      if (!m?.outcomes) return;
      for (const o of m.outcomes) {
        const cell = market.querySelector(`[data-outcome="${o.index}"]`);
        if (!cell) continue;
        cell.textContent = percent(o.probability);
        const meter = cell.parentNode.querySelector("meter");
        if (meter && o.probability !== null) meter.value = o.probability;
      }
      market.setAttribute("data-refreshed", new Date().toISOString());
    } catch {
      // Offline or rate limited: the next tick tries again.
    }
  };
  setInterval(refresh, 15000);
  document.addEventListener("visibilitychange", refresh);
}
