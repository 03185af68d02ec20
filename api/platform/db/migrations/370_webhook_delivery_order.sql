-- Webhook deliveries keep their enqueue order per subscription (docs/webhooks.md, docs/faults.md): the worker only
-- sends a subscription's oldest pending delivery, so a receiver that was down for hours gets the backlog in order.
-- created_at has millisecond ties and ids are random, hence a sequence.
ALTER TABLE api_webhook_deliveries ADD COLUMN enqueue_seq bigserial;
CREATE INDEX api_webhook_deliveries_head ON api_webhook_deliveries (subscription_id, enqueue_seq) WHERE status = 'pending';
