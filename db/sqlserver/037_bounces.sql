-- Bounces and complaints (issue 32; re-runnable; docs/bounces.md).
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 037_bounces.sql
-- Same meaning as db/postgres/037_bounces.sql (read it for the columns). The recipient compares binary, as the
-- suppression key it is (022); nvarchar(640) as the outbox's recipient, so the key is nonclustered (its 1,304 bytes).
IF OBJECT_ID(N'[$(Schema)].[notification_outcome]', N'U') IS NULL
CREATE TABLE [$(Schema)].[notification_outcome] (
    notification_id bigint                                    NOT NULL,
    outcome         varchar(16)                               NOT NULL CONSTRAINT CK_notification_outcome_outcome CHECK (outcome IN ('bounced', 'complained', 'deferred')),
    recipient       nvarchar(640) COLLATE Latin1_General_100_BIN2 NOT NULL,
    status          nvarchar(32)                              NULL,
    diagnostic      nvarchar(1000)                            NULL,
    reported_at     datetimeoffset(3)                         NOT NULL CONSTRAINT DF_notification_outcome_reported_at DEFAULT (SYSUTCDATETIME()),
    CONSTRAINT PK_notification_outcome PRIMARY KEY NONCLUSTERED (notification_id, outcome, recipient)
);
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_notification_outcome_deferred' AND object_id = OBJECT_ID(N'[$(Schema)].[notification_outcome]'))
CREATE NONCLUSTERED INDEX IX_notification_outcome_deferred ON [$(Schema)].[notification_outcome] (recipient, reported_at) WHERE outcome = 'deferred';
GO
-- The suppression reason of too many soft bounces.
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_suppression_reason'
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[suppression]') AND definition NOT LIKE N'%soft_bounce%')
ALTER TABLE [$(Schema)].[suppression] DROP CONSTRAINT CK_suppression_reason;
GO
IF NOT EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_suppression_reason'
               AND parent_object_id = OBJECT_ID(N'[$(Schema)].[suppression]'))
ALTER TABLE [$(Schema)].[suppression] ADD CONSTRAINT CK_suppression_reason
    CHECK (reason IN ('hard_bounce', 'complaint', 'unsubscribed', 'manual', 'unregistered', 'soft_bounce'));
GO
