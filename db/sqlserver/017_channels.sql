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
-- notification_status speaks of the receiving server, whichever channel: repeatable/10_notification_status.sql.
