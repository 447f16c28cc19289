-- Channels (idempotent): a row names how it leaves, email (the default), webhook or push (docs/channels.md).
-- Apply with: sqlcmd -v Schema=notifications -i 017_channels.sql
--   channel: 'email' | 'webhook' | 'push'. Every existing row and every insert that leaves it out stays email.
--   data:    a JSON value. A webhook's payload data ({"type": subject, "timestamp": ..., "data": data} is what the
--            endpoint receives); a push notification's custom data (a JSON object of string values).
-- What each channel reads from the other columns:
--   email    recipient = address, subject, body, ... as before
--   webhook  recipient = the endpoint's name (scripts/admin webhooks add), subject = the event type, data = payload data
--   push     recipient = 'fcm:<registration token>' or 'apns:<device token>', subject = title, body = text, data
-- A NOT NULL column with a constant default: metadata-only on Enterprise and Azure SQL; on Standard it writes every row.
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'channel') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD channel varchar(8) NOT NULL
    CONSTRAINT DF_outbox_channel DEFAULT ('email')
    CONSTRAINT CK_outbox_channel CHECK (channel IN ('email', 'webhook', 'push'));
GO
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'data') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD data nvarchar(max) NULL
    CONSTRAINT CK_outbox_data_json CHECK (ISJSON(data) = 1);
GO
-- 014's "prepared or templated" holds for email; a webhook or push row has no template, and its subject and body
-- are the channel's (a webhook has no body, a push row may carry data alone): the channel's rules check them.
-- Redefined once: the new definition names the channel column.
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_prepared_or_templated]', N'C') IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_outbox_prepared_or_templated' AND definition LIKE N'%channel%')
ALTER TABLE [$(Schema)].[outbox] DROP CONSTRAINT CK_outbox_prepared_or_templated;
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_prepared_or_templated]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD CONSTRAINT CK_outbox_prepared_or_templated CHECK (
    (channel = 'email' AND template_name IS NULL AND template_data IS NULL AND subject IS NOT NULL AND body IS NOT NULL)
    OR (channel = 'email' AND template_name IS NOT NULL AND template_data IS NOT NULL AND subject IS NULL AND body IS NULL)
    OR (channel <> 'email' AND template_name IS NULL AND template_data IS NULL));
GO
-- A push token the provider says is gone for good is suppressed with the reason 'unregistered'.
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_suppression_reason'
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[suppression]') AND definition NOT LIKE N'%unregistered%')
ALTER TABLE [$(Schema)].[suppression] DROP CONSTRAINT CK_suppression_reason;
GO
IF NOT EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_suppression_reason'
               AND parent_object_id = OBJECT_ID(N'[$(Schema)].[suppression]'))
ALTER TABLE [$(Schema)].[suppression] ADD CONSTRAINT CK_suppression_reason
    CHECK (reason IN ('hard_bounce', 'complaint', 'unsubscribed', 'manual', 'unregistered'));
GO
-- notification_status: 'sent' speaks of the receiving server, whichever channel (the rest as in 015).
CREATE OR ALTER FUNCTION [$(Schema)].[notification_status](@id bigint)
RETURNS TABLE
AS
RETURN
(
    SELECT TOP (1) @id AS notification_id, CAST(s.state AS varchar(16)) AS state, s.at, s.attempts, s.not_before,
           CAST(s.reason AS nvarchar(1000)) AS reason, CAST(s.detail AS nvarchar(300)) AS detail
    FROM (
        SELECT 1 AS rank, 'sent' AS state, d.updated_at AS at, d.attempts, CAST(NULL AS datetimeoffset(3)) AS not_before,
               CAST(NULL AS nvarchar(1000)) AS reason, CAST(N'accepted by the receiving server (SMTP relay, webhook endpoint or push service)' AS nvarchar(300)) AS detail
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'sent'
        UNION ALL
        SELECT 1, 'suppressed', d.updated_at, d.attempts, NULL, NULL,
               N'not sent: the recipient (address, domain or push token) is on the suppression list (scripts/admin suppression list)'
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'suppressed'
        UNION ALL
        SELECT 2, 'waiting', o.created_at, NULL, o.not_before, NULL,
               CASE WHEN o.not_before > SYSDATETIMEOFFSET()
                    THEN N'in the outbox, scheduled: not sent before not_before (' + o.priority + N' priority)'
                    ELSE N'in the outbox, waiting to be claimed (' + o.priority + N' priority)' END
        FROM [$(Schema)].[outbox] AS o WHERE o.id = @id
        UNION ALL
        SELECT 3, 'dead_lettered', x.dead_lettered_at, x.attempts, NULL, x.reason,
               N'moved to the dead-letter queue, not sent'
               + CASE WHEN x.copies > 1 THEN N' (dead-lettered ' + CAST(x.copies AS nvarchar(20)) + N' times, the latest shown)' ELSE N'' END
               + N' (scripts/admin dead-letters show --id ' + CAST(@id AS nvarchar(20)) + N')'
        FROM (SELECT TOP (1) d.dead_lettered_at, d.attempts, d.reason, COUNT(*) OVER () AS copies
              FROM [$(Schema)].[dead_letter] AS d WHERE d.notification_id = @id
              ORDER BY d.dead_lettered_at DESC, d.id DESC) AS x
        UNION ALL
        SELECT 4, 'rejected', r.rejected_at, NULL, NULL, r.reason, N'refused by the producer: never published, never sent'
        FROM [$(Schema)].[rejected] AS r WHERE r.id = @id
        UNION ALL
        SELECT 5, 'in_flight', d.updated_at, NULL, NULL, NULL,
               N'at most once: marked sending; a mark older than a send takes means the outcome is unknown (connection lost after the message was handed over)'
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'sending'
        UNION ALL
        SELECT 6,
               CASE WHEN @id <= COALESCE(k.max_deleted_id, 0) THEN 'unknown' ELSE 'in_flight' END, NULL, NULL, NULL, NULL,
               CASE WHEN @id <= COALESCE(k.max_deleted_id, 0)
                    THEN N'no record: removed by the retention cleanup (ids up to ' + CAST(k.max_deleted_id AS nvarchar(20)) + N'), or never committed'
                    ELSE N'claimed from the outbox and handed to the broker: being delivered or waiting for a retry' END
        FROM (SELECT 1 AS x) AS one LEFT JOIN [$(Schema)].[retention] AS k ON k.job = 'cleanup'
        WHERE @id > 0 AND @id <= COALESCE(IDENT_CURRENT(N'[$(Schema)].[outbox]'), 0)
        UNION ALL
        SELECT 7, 'unknown', NULL, NULL, NULL, NULL, N'no such notification: the outbox never issued this id'
    ) AS s
    ORDER BY s.rank
);
GO
