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
-- delivery_log.status gains 'suppressed' (not sent: on the suppression list); notification_status answers it:
-- repeatable/10_notification_status.sql.
