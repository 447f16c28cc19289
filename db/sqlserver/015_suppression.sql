-- Suppression and unsubscribe (idempotent; docs/suppression.md).
-- Apply with: sqlcmd -v Schema=notifications -i 015_suppression.sql
-- One row per key: a lower-case address ('user@example.com'), or '@' and a domain ('@example.com') for every
-- address at it. reason: hard_bounce (a 5xx to RCPT TO, written by the consumer), complaint, unsubscribed (the
-- one-click endpoint, RFC 8058), manual (scripts/admin suppression add). scope: 'all' stops every notification to the
-- key, 'bulk' only those of priority bulk (an unsubscribe is from bulk mail; transactional mail still goes).
-- A removed entry keeps its row with removed_at set (a tombstone), so that every consumer's cache, which reloads
-- the rows changed since its last look (changed_at), learns of the removal too; adding the key again revives the row.
-- nvarchar(640) as the outbox's recipient (006); a nonclustered key allows its 1,280 bytes (a clustered one, 900).
IF OBJECT_ID(N'[$(Schema)].[suppression]', N'U') IS NULL
CREATE TABLE [$(Schema)].[suppression] (
    address    nvarchar(640)     NOT NULL CONSTRAINT PK_suppression PRIMARY KEY NONCLUSTERED,
    reason     varchar(16)       NOT NULL CONSTRAINT CK_suppression_reason CHECK (reason IN ('hard_bounce', 'complaint', 'unsubscribed', 'manual')),
    scope      varchar(8)        NOT NULL CONSTRAINT CK_suppression_scope CHECK (scope IN ('all', 'bulk')),
    since      datetimeoffset(3) NOT NULL CONSTRAINT DF_suppression_since DEFAULT (SYSUTCDATETIME()),
    detail     nvarchar(1000)    NULL,
    changed_at datetimeoffset(3) NOT NULL CONSTRAINT DF_suppression_changed_at DEFAULT (SYSUTCDATETIME()),
    removed_at datetimeoffset(3) NULL
);
GO
-- The consumers' refresh reads the rows changed since a watermark.
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_suppression_changed_at' AND object_id = OBJECT_ID(N'[$(Schema)].[suppression]'))
CREATE CLUSTERED INDEX IX_suppression_changed_at ON [$(Schema)].[suppression] (changed_at);
GO
-- delivery_log.status gains 'suppressed' (not sent: on the suppression list); notification_status answers it
-- (the rest as in 010).
CREATE OR ALTER FUNCTION [$(Schema)].[notification_status](@id bigint)
RETURNS TABLE
AS
RETURN
(
    SELECT TOP (1) @id AS notification_id, CAST(s.state AS varchar(16)) AS state, s.at, s.attempts, s.not_before,
           CAST(s.reason AS nvarchar(1000)) AS reason, CAST(s.detail AS nvarchar(300)) AS detail
    FROM (
        SELECT 1 AS rank, 'sent' AS state, d.updated_at AS at, d.attempts, CAST(NULL AS datetimeoffset(3)) AS not_before,
               CAST(NULL AS nvarchar(1000)) AS reason, CAST(N'accepted by the SMTP server' AS nvarchar(300)) AS detail
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'sent'
        UNION ALL
        SELECT 1, 'suppressed', d.updated_at, d.attempts, NULL, NULL,
               N'not sent: the recipient or its domain is on the suppression list (scripts/admin suppression list)'
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
