-- Idempotency keys (idempotent): a business app may give a notification a key (Notifications.Client,
-- NewNotification.IdempotencyKey); enqueuing the same key again inserts nothing and returns the first id.
-- Apply with: psql -v schema=notifications -f 013_idempotency_key.sql
-- The keys live in their own table, not in the outbox, because the producer deletes an outbox row when it
-- claims it: a key must outlive its row. The client writes the key in the caller's transaction; the
-- retention cleanup deletes keys older than the delivery log's retention (Retention:DeliveryLog).
CREATE TABLE IF NOT EXISTS :"schema".idempotency_key (
    idempotency_key varchar(200) NOT NULL PRIMARY KEY,
    notification_id bigint       NOT NULL,
    created_at      timestamptz  NOT NULL DEFAULT now()
);
-- The retention cleanup deletes the oldest keys first.
CREATE INDEX IF NOT EXISTS idempotency_key_created_at ON :"schema".idempotency_key (created_at);
