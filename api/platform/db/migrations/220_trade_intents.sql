-- Prepared trade intents by EIP-712 digest (docs/trading-onchain.md). Instants are epoch milliseconds.
CREATE TABLE api_trade_intents (
  digest text PRIMARY KEY,                  -- 0x + 64 hex, the TradeIntent digest the agent signs
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  lane text NOT NULL CHECK (lane IN ('onchain', 'committed')),
  chain_id integer NOT NULL,
  router text NOT NULL,
  market text NOT NULL,
  intent jsonb NOT NULL,                    -- TradeIntent fields, integers as decimal strings
  quote jsonb NOT NULL,
  status text NOT NULL DEFAULT 'prepared' CHECK (status IN ('prepared', 'submitted', 'executed', 'failed')),
  tx_hash text,
  error text,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX api_trade_intents_agent ON api_trade_intents (agent_id, created_at);
