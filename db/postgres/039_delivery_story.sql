-- A notification's story (re-runnable; docs/console.md, "A notification's story"): when it was claimed and published, its
-- trace, and each failed attempt with its failure.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 039_delivery_story.sql
--   delivery_log.claimed_at/published_at  the producer's stamps the message carries (x-claimed-at, x-published-at), written
--                                         by the consumer's batched insert of the row; NULL when the message had none
--   delivery_log.trace_id                 the trace the consumer's handling belonged to (32 hex digits); NULL untraced
--   delivery_attempt                      one row per failed attempt followed by a retry, written on the failure path only;
--                                         the retention cleanup deletes them with the notification's delivery-log row or dead letter
ALTER TABLE :"schema".delivery_log ADD COLUMN IF NOT EXISTS claimed_at timestamptz NULL;
ALTER TABLE :"schema".delivery_log ADD COLUMN IF NOT EXISTS published_at timestamptz NULL;
ALTER TABLE :"schema".delivery_log ADD COLUMN IF NOT EXISTS trace_id char(32) NULL;
CREATE TABLE IF NOT EXISTS :"schema".delivery_attempt (
    notification_id bigint        NOT NULL,
    attempt         integer       NOT NULL,
    failed_at       timestamptz   NOT NULL DEFAULT now(),
    reason          varchar(1000) NOT NULL,
    trace_id        char(32)      NULL,
    PRIMARY KEY (notification_id, attempt)
);
