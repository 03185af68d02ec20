-- How a participation claim reaches the chain (docs/participation-release.md): `self_claim`, a wallet sends the
-- voucher's transaction; `protocol_push`, the service sends it with the operator key (the recipient has no gas).
ALTER TABLE participation_intents ADD COLUMN delivery_mode text NOT NULL DEFAULT 'self_claim' CHECK (delivery_mode IN ('self_claim', 'protocol_push'));
