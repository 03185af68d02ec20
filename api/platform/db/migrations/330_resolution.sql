-- Resolution read models (docs/resolution.md "Read models"): the money movements and state changes of markets'
-- lives, projected from the journal (journal_entries) in journal order, so every answer about payouts, bonds,
-- stakes and collections names the journal entry that made it and, through ledger_batches, the batch that put it
-- on chain. Instants are epoch milliseconds; amounts decimal integers (PM or collateral base units).

CREATE TABLE lifecycle_projection_cursor (
  id smallint PRIMARY KEY CHECK (id = 1),
  last_seq bigint NOT NULL                   -- every journal entry up to this seq is projected
);
INSERT INTO lifecycle_projection_cursor (id, last_seq) VALUES (1, 0);

CREATE TABLE lifecycle_ops (
  entry_seq bigint NOT NULL,                 -- journal_entries.seq of the command that made the op
  idx integer NOT NULL,                      -- the op's index inside that entry
  at bigint NOT NULL,
  market_id numeric(20, 0) NOT NULL,
  kind text NOT NULL,                        -- the PMJ5 op type (MARKET_STATE, RESOLUTION_PAYOUT, BOND_RETURN, ...)
  account text,                              -- holder, bond owner, voter or collector (lower case)
  recipient text,                            -- BOND_AWARD: who got the bond share
  side smallint,                             -- payouts: the outcome burned; MARKET_STATE: the outcome (null = none)
  state text,                                -- MARKET_STATE only
  session integer,                           -- vote ops
  shares numeric(78, 0),
  amount numeric(78, 0) NOT NULL DEFAULT 0,
  PRIMARY KEY (entry_seq, idx)
);
CREATE INDEX lifecycle_ops_account ON lifecycle_ops (account, kind, market_id);
CREATE INDEX lifecycle_ops_market ON lifecycle_ops (market_id, kind);

-- The on-chain lane's resolver actions: at finality the service's resolver key calls resolve(outcome) or
-- voidMarket() on the market's LmsrMarket, retried until its receipt is recorded (docs/resolution.md "On-chain lane").
CREATE TABLE lifecycle_resolver_actions (
  market_id numeric(20, 0) PRIMARY KEY,
  chain_id integer NOT NULL,
  market_address text NOT NULL,
  method text NOT NULL CHECK (method IN ('resolve', 'voidMarket')),
  outcome smallint,
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'confirmed')),
  tx_hash text,
  block_number bigint,
  attempts integer NOT NULL DEFAULT 0,
  error text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
