-- The operators' console (issue 31; re-runnable; docs/console.md): dead letters grouped by a normalised reason, one
-- notification found by recipient or subscriber, and bulk requeue/purge jobs whose progress outlives a page or a process.
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 036_console_operations.sql
-- Same meaning as db/postgres/036_console_operations.sql (read it for the columns).
IF COL_LENGTH(N'[$(Schema)].[dead_letter]', N'reason_class') IS NULL
ALTER TABLE [$(Schema)].[dead_letter] ADD reason_class nvarchar(200) NOT NULL CONSTRAINT DF_dead_letter_reason_class DEFAULT (N'');
GO
UPDATE [$(Schema)].[dead_letter] SET reason_class = LEFT(TRANSLATE(reason, N'0123456789', N'##########'), 200) WHERE reason_class = N'';
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_dead_letter_reason_class' AND object_id = OBJECT_ID(N'[$(Schema)].[dead_letter]'))
CREATE NONCLUSTERED INDEX IX_dead_letter_reason_class ON [$(Schema)].[dead_letter] (reason_class, dead_lettered_at);
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_audience_delivery_subscriber' AND object_id = OBJECT_ID(N'[$(Schema)].[audience_delivery]'))
CREATE NONCLUSTERED INDEX IX_audience_delivery_subscriber ON [$(Schema)].[audience_delivery] (subscriber_id, id);
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_audience_delivery_address' AND object_id = OBJECT_ID(N'[$(Schema)].[audience_delivery]'))
CREATE NONCLUSTERED INDEX IX_audience_delivery_address ON [$(Schema)].[audience_delivery] (address, id) WHERE address IS NOT NULL;
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_fanout_job_audience' AND object_id = OBJECT_ID(N'[$(Schema)].[fanout_job]'))
CREATE NONCLUSTERED INDEX IX_fanout_job_audience ON [$(Schema)].[fanout_job] (audience, id);
GO
IF OBJECT_ID(N'[$(Schema)].[admin_job]', N'U') IS NULL
CREATE TABLE [$(Schema)].[admin_job] (
    id               bigint IDENTITY(1, 1) NOT NULL,
    kind             varchar(16)       NOT NULL CONSTRAINT CK_admin_job_kind CHECK (kind IN ('requeue', 'purge')),
    reason_class     nvarchar(200)     NULL,
    notification_ids varchar(max)      NULL,
    requested_by     nvarchar(200)     NOT NULL,
    state            varchar(16)       NOT NULL CONSTRAINT DF_admin_job_state DEFAULT ('queued')
        CONSTRAINT CK_admin_job_state CHECK (state IN ('queued', 'running', 'done', 'failed')),
    total            bigint            NULL,
    done             bigint            NOT NULL CONSTRAINT DF_admin_job_done DEFAULT (0),
    failed           bigint            NOT NULL CONSTRAINT DF_admin_job_failed DEFAULT (0),
    lease_owner      nvarchar(100)     NULL,
    lease_until      datetimeoffset(3) NULL,
    created_at       datetimeoffset(3) NOT NULL CONSTRAINT DF_admin_job_created_at DEFAULT (SYSUTCDATETIME()),
    started_at       datetimeoffset(3) NULL,
    finished_at      datetimeoffset(3) NULL,
    last_error       nvarchar(1000)    NULL,
    CONSTRAINT PK_admin_job PRIMARY KEY CLUSTERED (id),
    CONSTRAINT CK_admin_job_one_selection CHECK ((reason_class IS NULL AND notification_ids IS NOT NULL) OR (reason_class IS NOT NULL AND notification_ids IS NULL))
);
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_admin_job_open' AND object_id = OBJECT_ID(N'[$(Schema)].[admin_job]'))
CREATE NONCLUSTERED INDEX IX_admin_job_open ON [$(Schema)].[admin_job] (id) WHERE state IN ('queued', 'running');
GO
