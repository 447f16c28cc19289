-- A notification's story (idempotent; docs/console.md, "A notification's story"): when it was claimed and published, its
-- trace, and each failed attempt with its failure.
-- Apply with: sqlcmd -v Schema=notifications -i 039_delivery_story.sql
--   delivery_log.claimed_at/published_at  the producer's stamps the message carries (x-claimed-at, x-published-at), written
--                                         by the consumer's batched insert of the row; NULL when the message had none
--   delivery_log.trace_id                 the trace the consumer's handling belonged to (32 hex digits); NULL untraced
--   delivery_attempt                      one row per failed attempt followed by a retry, written on the failure path only;
--                                         the retention cleanup deletes them with the notification's delivery-log row or dead letter
IF COL_LENGTH(N'[$(Schema)].[delivery_log]', N'claimed_at') IS NULL
ALTER TABLE [$(Schema)].[delivery_log] ADD claimed_at datetimeoffset(3) NULL;
GO
IF COL_LENGTH(N'[$(Schema)].[delivery_log]', N'published_at') IS NULL
ALTER TABLE [$(Schema)].[delivery_log] ADD published_at datetimeoffset(3) NULL;
GO
IF COL_LENGTH(N'[$(Schema)].[delivery_log]', N'trace_id') IS NULL
ALTER TABLE [$(Schema)].[delivery_log] ADD trace_id char(32) NULL;
GO
IF OBJECT_ID(N'[$(Schema)].[delivery_attempt]', N'U') IS NULL
CREATE TABLE [$(Schema)].[delivery_attempt] (
    notification_id bigint            NOT NULL,
    attempt         int               NOT NULL,
    failed_at       datetimeoffset(3) NOT NULL CONSTRAINT DF_delivery_attempt_failed_at DEFAULT (SYSUTCDATETIME()),
    reason          nvarchar(1000)    NOT NULL,
    trace_id        char(32)          NULL,
    CONSTRAINT PK_delivery_attempt PRIMARY KEY (notification_id, attempt)
);
GO
