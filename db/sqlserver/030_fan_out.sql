-- Fan-out (idempotent; the same columns, tables and checks as PostgreSQL's 030, read its header; docs/fan-out.md): a row
-- may address a subscriber or a topic, and the producer's fan-out stage turns it into one delivery per contact point.
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 030_fan_out.sql
--   outbox.channel 'audience', outbox.channels, fanout_job, audience_delivery: as PostgreSQL's.
--   fanout_delivery_id    a SEQUENCE from 2^62 up: the outbox's id is an IDENTITY, which no other table can take from,
--                         so the deliveries' ids live in a range the outbox never reaches.
-- The checks on the outbox are added WITH NOCHECK (no scan under the schema lock), then made trusted, as 023's are.
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'channels') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD channels varchar(16) NULL;
GO
IF OBJECT_ID(N'[$(Schema)].[fanout_delivery_id]', N'SO') IS NULL
CREATE SEQUENCE [$(Schema)].[fanout_delivery_id] AS bigint START WITH 4611686018427387904 MINVALUE 4611686018427387904;
GO
IF OBJECT_ID(N'[$(Schema)].[fanout_job]', N'U') IS NULL
CREATE TABLE [$(Schema)].[fanout_job] (
    id          bigint            NOT NULL CONSTRAINT PK_fanout_job PRIMARY KEY,
    audience    nvarchar(320) COLLATE Latin1_General_100_BIN2 NOT NULL,
    channels    varchar(16)       NOT NULL,
    category    varchar(64) COLLATE Latin1_General_100_BIN2 NULL,
    parent      nvarchar(max)     NOT NULL,
    state       varchar(16)       NOT NULL CONSTRAINT DF_fanout_job_state DEFAULT ('running')
        CONSTRAINT CK_fanout_job_state CHECK (state IN ('running', 'done', 'no_such_audience')),
    [cursor]    bigint            NOT NULL CONSTRAINT DF_fanout_job_cursor DEFAULT (0),
    page_end    bigint            NULL,
    lease_owner nvarchar(100)     NULL,
    lease_until datetimeoffset(3) NULL,
    published   bigint            NOT NULL CONSTRAINT DF_fanout_job_published DEFAULT (0),
    opted_out   bigint            NOT NULL CONSTRAINT DF_fanout_job_opted_out DEFAULT (0),
    no_contact  bigint            NOT NULL CONSTRAINT DF_fanout_job_no_contact DEFAULT (0),
    reason      nvarchar(1000)    NULL,
    created_at  datetimeoffset(3) NOT NULL CONSTRAINT DF_fanout_job_created_at DEFAULT (SYSUTCDATETIME()),
    finished_at datetimeoffset(3) NULL
);
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_fanout_job_running' AND object_id = OBJECT_ID(N'[$(Schema)].[fanout_job]'))
CREATE INDEX IX_fanout_job_running ON [$(Schema)].[fanout_job] (id) WHERE state = 'running';
GO
IF OBJECT_ID(N'[$(Schema)].[audience_delivery]', N'U') IS NULL
CREATE TABLE [$(Schema)].[audience_delivery] (
    id               bigint        NOT NULL CONSTRAINT PK_audience_delivery PRIMARY KEY
        CONSTRAINT DF_audience_delivery_id DEFAULT (NEXT VALUE FOR [$(Schema)].[fanout_delivery_id])
        CONSTRAINT CK_audience_delivery_id CHECK (id >= 4611686018427387904),
    parent_id        bigint        NOT NULL CONSTRAINT FK_audience_delivery_parent REFERENCES [$(Schema)].[fanout_job] (id) ON DELETE CASCADE,
    subscriber_id    bigint        NOT NULL,
    contact_point_id bigint        NULL,
    channel          varchar(8)    NULL,
    address          nvarchar(320) COLLATE Latin1_General_100_BIN2 NULL,
    outcome          varchar(16)   NOT NULL CONSTRAINT CK_audience_delivery_outcome CHECK (outcome IN ('published', 'opted_out', 'no_contact'))
);
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_audience_delivery_parent' AND object_id = OBJECT_ID(N'[$(Schema)].[audience_delivery]'))
CREATE INDEX IX_audience_delivery_parent ON [$(Schema)].[audience_delivery] (parent_id, subscriber_id);
GO
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_outbox_channel'
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[outbox]') AND definition NOT LIKE N'%audience%')
ALTER TABLE [$(Schema)].[outbox] DROP CONSTRAINT CK_outbox_channel;
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_channel]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_channel CHECK (channel IN ('email', 'webhook', 'push', 'audience'));
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_audience_channels]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_audience_channels CHECK (
    (channel = 'audience' AND channels IS NOT NULL AND channels IN ('email', 'push', 'email,push'))
    OR (channel <> 'audience' AND channels IS NULL));
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_audience_recipient]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_audience_recipient CHECK (
    channel <> 'audience'
    OR (recipient LIKE N'subscriber:[A-Za-z0-9]%' COLLATE Latin1_General_100_BIN2 AND LEN(recipient) <= 139
        AND SUBSTRING(recipient, 12, 320) NOT LIKE N'%[^A-Za-z0-9._:@+=-]%' COLLATE Latin1_General_100_BIN2)
    OR (recipient LIKE N'topic:[a-z0-9]%' COLLATE Latin1_General_100_BIN2 AND LEN(recipient) <= 134
        AND SUBSTRING(recipient, 7, 320) NOT LIKE N'%[^a-z0-9._-]%' COLLATE Latin1_General_100_BIN2));
GO
-- Every row older than the column holds NULL channels and a known channel: nothing to fail.
DECLARE @check sysname, @validate nvarchar(400);
DECLARE checks CURSOR LOCAL FAST_FORWARD FOR
    SELECT name FROM sys.check_constraints
    WHERE parent_object_id = OBJECT_ID(N'[$(Schema)].[outbox]') AND is_not_trusted = 1
      AND name IN (N'CK_outbox_channel', N'CK_outbox_audience_channels', N'CK_outbox_audience_recipient');
OPEN checks;
FETCH NEXT FROM checks INTO @check;
WHILE @@FETCH_STATUS = 0
BEGIN
    SET @validate = N'ALTER TABLE [$(Schema)].[outbox] WITH CHECK CHECK CONSTRAINT ' + QUOTENAME(@check);
    EXEC sys.sp_executesql @validate;
    FETCH NEXT FROM checks INTO @check;
END;
CLOSE checks;
DEALLOCATE checks;
GO
