-- Claim-mail throttle (api/domain/auth/claim-mail-throttle.ts): recent claim links by recipient.
CREATE INDEX api_claim_links_email_recent ON api_claim_links (email, kind, created_at);
