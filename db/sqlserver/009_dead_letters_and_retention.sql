-- Dead letters in the database, the attempts of a send, and the retention cleanup's state (idempotent).
-- Apply with: sqlcmd -v Schema=notifications -i 009_dead_letters_and_retention.sql
--
-- dead_letter: one row per message the consumer moved to the dead-letter queue, written by the consumer just
-- before it publishes the dead letter (both delivery modes), so "what happened to notification N" needs no
-- look into the queue. Each dead letter is its own row (012; until then a second dead letter of an id replaced
-- the first); messages whose id could not be read (garbage bytes) get a row with notification_id NULL.
-- `scripts/admin dead-letters requeue` deletes the rows of what it requeued, `purge dead-letters` all rows.
IF OBJECT_ID(N'[$(Schema)].[dead_letter]', N'U') IS NULL
CREATE TABLE [$(Schema)].[dead_letter] (
    id               bigint IDENTITY(1,1) NOT NULL,
    notification_id  bigint         NULL,
    reason           nvarchar(1000) NOT NULL,
    attempts         int            NOT NULL,
    dead_lettered_at datetimeoffset(3) NOT NULL CONSTRAINT DF_dead_letter_dead_lettered_at DEFAULT (SYSUTCDATETIME()),
    CONSTRAINT PK_dead_letter PRIMARY KEY CLUSTERED (id)
);
GO
-- (Its unique index on notification_id was created here until 012 replaced it: not created again, so that
-- applying every file in order never fails on an id with two rows.)
-- The retention cleanup deletes the oldest rows first.
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_dead_letter_dead_lettered_at' AND object_id = OBJECT_ID(N'[$(Schema)].[dead_letter]'))
CREATE NONCLUSTERED INDEX IX_dead_letter_dead_lettered_at ON [$(Schema)].[dead_letter] (dead_lettered_at);
GO
-- The attempt (1 = first delivery, each retry adds one) on which the SMTP server accepted the notification.
-- NULL for rows recorded before this column existed and for 'sending' marks.
IF COL_LENGTH(N'[$(Schema)].[delivery_log]', N'attempts') IS NULL
ALTER TABLE [$(Schema)].[delivery_log] ADD attempts int NULL;
GO
-- The retention cleanup's fleet-wide lease (one row per job) and how far it has removed records:
-- max_deleted_id is the highest notification id whose delivery-log or dead-letter row it deleted, so the
-- status can tell "no record because retention removed it" from "in flight".
IF OBJECT_ID(N'[$(Schema)].[retention]', N'U') IS NULL
CREATE TABLE [$(Schema)].[retention] (
    job            varchar(32)   NOT NULL,
    lease_until    datetimeoffset(3) NOT NULL CONSTRAINT DF_retention_lease_until DEFAULT ('0001-01-01T00:00:00+00:00'),
    holder         nvarchar(200) NULL,
    last_run_at    datetimeoffset(3) NULL,
    max_deleted_id bigint        NULL,
    CONSTRAINT PK_retention PRIMARY KEY CLUSTERED (job)
);
GO
IF NOT EXISTS (SELECT 1 FROM [$(Schema)].[retention] WHERE job = 'cleanup')
INSERT INTO [$(Schema)].[retention] (job) VALUES ('cleanup');
GO
