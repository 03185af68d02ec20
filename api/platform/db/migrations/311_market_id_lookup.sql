-- The next engine market id (prepare-deploy, api/domain/markets/creation/negotiation-store.ts) reads MAX(market_id)
-- over every chain: an index on market_id alone answers it from the index's end instead of scanning the catalog.
CREATE INDEX markets_market_id_any_chain ON markets (market_id) WHERE market_id IS NOT NULL;
