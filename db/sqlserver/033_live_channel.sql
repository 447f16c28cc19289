-- The live channel (re-runnable; issue 30, docs/live.md): a row may name channel 'live', to an app's own connection.
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 033_live_channel.sql
--   outbox.channel 'live'          recipient is the subscriber (the app's own id, as a token's sub); subject, body and
--                                  data (a JSON object) as a push row's, at least one of them
--   live_pending.at_most_once      the consumer's delivery mode when it wrote the row: the gateway sends such a row at
--                                  most once (it marks sent_at first, and never sends a marked row again); otherwise
--                                  until the client acks it
--   live_pending.sent_at           when a gateway first sent the row (at most once: the mark)
IF COL_LENGTH(N'[$(Schema)].[live_pending]', N'at_most_once') IS NULL
ALTER TABLE [$(Schema)].[live_pending] ADD at_most_once bit NOT NULL CONSTRAINT DF_live_pending_at_most_once DEFAULT (0);
GO
IF COL_LENGTH(N'[$(Schema)].[live_pending]', N'sent_at') IS NULL
ALTER TABLE [$(Schema)].[live_pending] ADD sent_at datetimeoffset(3) NULL;
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_live_pending_expires' AND object_id = OBJECT_ID(N'[$(Schema)].[live_pending]'))
CREATE INDEX IX_live_pending_expires ON [$(Schema)].[live_pending] (expires_at);
GO
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_outbox_channel'
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[outbox]') AND definition NOT LIKE N'%live%')
ALTER TABLE [$(Schema)].[outbox] DROP CONSTRAINT CK_outbox_channel;
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_channel]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_channel CHECK (channel IN ('email', 'webhook', 'push', 'audience', 'live'));
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_live_recipient]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_live_recipient CHECK (
    channel <> 'live'
    OR (recipient LIKE N'[A-Za-z0-9]%' COLLATE Latin1_General_100_BIN2 AND LEN(recipient) <= 128
        AND recipient NOT LIKE N'%[^A-Za-z0-9._:@+=-]%' COLLATE Latin1_General_100_BIN2));
GO
-- Every row older than this holds a channel the old check knew: nothing to fail.
DECLARE @check sysname, @validate nvarchar(400);
DECLARE checks CURSOR LOCAL FAST_FORWARD FOR
    SELECT name FROM sys.check_constraints
    WHERE parent_object_id = OBJECT_ID(N'[$(Schema)].[outbox]') AND is_not_trusted = 1
      AND name IN (N'CK_outbox_channel', N'CK_outbox_live_recipient');
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
