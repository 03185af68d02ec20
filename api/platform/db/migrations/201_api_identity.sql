-- API identity: every agent has one ledger account (docs/auth.md, /tmp engine interface "Accounts"): its wallet when
-- it registered with one, else 0x + last 20 bytes of keccak256("svc-agent:" + id). Fixed at creation: binding a wallet
-- later does not move the agent's balances.
ALTER TABLE api_agents ADD COLUMN ledger_account text;
UPDATE api_agents SET ledger_account = wallet_address WHERE ledger_account IS NULL AND wallet_address IS NOT NULL;
CREATE UNIQUE INDEX api_agents_ledger_account ON api_agents (ledger_account) WHERE ledger_account IS NOT NULL;

-- Which template kind a wallet-proof nonce was spent on (register, recovery, bind-wallet), for audits.
ALTER TABLE api_nonces ADD COLUMN used_for text;
