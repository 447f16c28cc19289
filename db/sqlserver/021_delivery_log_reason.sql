-- At most once, a send whose outcome is unknown is recorded with why (idempotent; docs/reliability.md, "At most once").
-- Apply with: sqlcmd -v Schema=notifications -i 021_delivery_log_reason.sql
--   delivery_log.reason: on a 'sending' mark whose send ended maybe delivered: the answer was lost after the message was
--   handed over, or an HTTP 408/5xx came to a request written in full. The mark stays (the notification is not sent again);
--   attempts holds the attempt that sent it. NULL on every other row.
IF COL_LENGTH(N'[$(Schema)].[delivery_log]', N'reason') IS NULL
ALTER TABLE [$(Schema)].[delivery_log] ADD reason nvarchar(1000) NULL;
GO
-- notification_status answers 'maybe_sent' for such a mark: db/sqlserver/repeatable/10_notification_status.sql.
