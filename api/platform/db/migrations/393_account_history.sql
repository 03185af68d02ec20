-- Account histories projected from the journal (docs/journal.md "Account histories"): each account's trading cash
-- flows (the deprecated P&L history), its reputation events and the days it traded. They were kept in memory and
-- rebuilt by reading the whole journal at every start, so the service's memory and its start grew with the journal
-- for ever; here they are rows, and a start reads only the entries after the cursor. Written one page of entries per
-- transaction, under the cursor row's lock, so instances sharing the database write each entry once.
-- Instants are epoch milliseconds; amounts decimal integers in base units; accounts lower case.

CREATE TABLE account_history_cursor (
  id smallint PRIMARY KEY CHECK (id = 1),
  last_seq bigint NOT NULL                   -- every journal entry up to this seq is projected
);
INSERT INTO account_history_cursor (id, last_seq) VALUES (1, 0);

CREATE TABLE account_cash_flows (
  account text NOT NULL,
  pos integer NOT NULL,                      -- 0, 1, 2... in journal order: the page cursor of the P&L history
  seq bigint NOT NULL,                       -- journal_entries.seq
  at bigint NOT NULL,
  market_id numeric(20, 0) NOT NULL,
  kind text NOT NULL CHECK (kind IN ('buy', 'sell', 'payout', 'refund')),
  outcome smallint,
  shares numeric(78, 0) NOT NULL,
  cash_flow numeric(78, 0) NOT NULL,
  fee numeric(78, 0) NOT NULL,
  cumulative numeric(78, 0) NOT NULL,        -- the account's cash flows summed up to and including this one
  PRIMARY KEY (account, pos)
);

CREATE TABLE account_reputation_events (
  seq bigint NOT NULL,                       -- journal_entries.seq
  idx integer NOT NULL,                      -- the event's index among that entry's events
  at bigint NOT NULL,
  account text NOT NULL,
  kind text NOT NULL,
  role text NOT NULL,
  market_id numeric(20, 0) NOT NULL,
  amount numeric(78, 0),
  outcome smallint,
  session integer,
  state text,
  PRIMARY KEY (seq, idx)
);
CREATE INDEX account_reputation_events_account ON account_reputation_events (account, seq, idx);
-- Each market's creator and challengers, read back when another instance moved the cursor.
CREATE INDEX account_reputation_events_parties ON account_reputation_events (kind) WHERE kind IN ('market_created', 'challenge_bond_locked');

CREATE TABLE account_trade_days (
  account text NOT NULL,
  day integer NOT NULL,                      -- UTC day number (epoch ms / 86,400,000)
  last_at bigint NOT NULL,                   -- the last qualifying trade of that day
  PRIMARY KEY (account, day)
);
