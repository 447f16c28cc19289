-- The live channel's pending notifications (re-runnable; issue 30, branch live: the gateway's first slice).
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 032_live.sql
--   live_pending   one row per live notification not yet acked by its subscriber's app: written by the consumer's live
--                  channel, sent by the gateway on connect in id order, deleted by the client's ack; expired rows are
--                  not sent. The subscriber is the app's own id (the token's sub).
IF OBJECT_ID(N'[$(Schema)].[live_pending]', N'U') IS NULL
CREATE TABLE [$(Schema)].[live_pending] (
    notification_id bigint            NOT NULL CONSTRAINT PK_live_pending PRIMARY KEY,
    subscriber_id   varchar(128)      COLLATE Latin1_General_BIN2 NOT NULL,
    subject         nvarchar(998)     NULL,
    body            nvarchar(max)     NULL,
    data            nvarchar(max)     NULL CONSTRAINT CK_live_pending_data_json CHECK (ISJSON(data) = 1),
    created_at      datetimeoffset(3) NOT NULL CONSTRAINT DF_live_pending_created_at DEFAULT (SYSUTCDATETIME()),
    expires_at      datetimeoffset(3) NULL,
    INDEX IX_live_pending_subscriber (subscriber_id, notification_id)
);
GO
