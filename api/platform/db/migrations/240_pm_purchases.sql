-- PM bought over x402 (docs/pm-purchase.md). One row per EIP-3009 authorization: the unique (chain, token, payer,
-- nonce) claims the authorization before anything is sent to the chain, so a reused nonce is refused and a retried
-- purchase resumes its own row instead of paying or crediting twice. Amounts are decimal strings of base units;
-- instants are epoch milliseconds.
CREATE TABLE pm_purchases (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES api_agents (id),
  account text NOT NULL,                    -- ledger account credited (lower-case 0x)
  chain_id integer NOT NULL,
  asset text NOT NULL,                      -- USDC token address (lower-case)
  payer text NOT NULL,                      -- the authorization's `from` (lower-case)
  nonce text NOT NULL,                      -- the EIP-3009 nonce, 0x + 64 hex (lower-case)
  pay_to text NOT NULL,                     -- the treasury (lower-case)
  amount text NOT NULL,                     -- USDC base units paid
  pm text NOT NULL,                         -- PM base units credited
  fills integer NOT NULL,                   -- permanent fill credits added
  status text NOT NULL CHECK (status IN ('settling', 'settled', 'credited')),
  tx_hash text,                             -- the transferWithAuthorization transaction, once settled
  journal_floor bigint NOT NULL,            -- the exchange's next journal seq when the row was claimed (bounds a resume's search)
  response jsonb,                           -- the 200 body, once credited
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  UNIQUE (chain_id, asset, payer, nonce)
);
CREATE INDEX pm_purchases_agent ON pm_purchases (agent_id, created_at);
