-- At most once, a send whose outcome is unknown is recorded with why (idempotent; docs/reliability.md, "At most once").
-- Apply with: psql -v schema=notifications -f 021_delivery_log_reason.sql
--   delivery_log.reason: on a 'sending' mark whose send ended maybe delivered: the answer was lost after the message was
--   handed over, or an HTTP 408/5xx came to a request written in full. The mark stays (the notification is not sent again);
--   attempts holds the attempt that sent it. NULL on every other row.
ALTER TABLE :"schema".delivery_log ADD COLUMN IF NOT EXISTS reason varchar(1000) NULL;
COMMENT ON COLUMN :"schema".delivery_log.reason IS 'at most once: why a sending mark''s send has an unknown outcome (maybe delivered); NULL otherwise';
-- notification_status answers 'maybe_sent' for such a mark: db/postgres/repeatable/10_notification_status.sql.
