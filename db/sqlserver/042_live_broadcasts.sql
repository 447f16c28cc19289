-- Live broadcasts to a topic (idempotent; issue 30, docs/live.md#broadcasts-to-a-topic).
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 042_live_broadcasts.sql
--   live_broadcast          one row per live notification to a topic (a row of channels 'live' alone to 'topic:<name>'):
--                           written by the consumer's live channel instead of a row per subscriber; every gateway node
--                           sends it to its connections of the topic's subscribers (subscribed before it was written,
--                           the category's preference or default applied); expired rows are not sent
--   live_broadcast_receipt  a subscriber's state of one broadcast: acked_at when an app of it acked (never sent again),
--                           sent_at when a gateway marked it sent at most once (never sent again either)
IF OBJECT_ID(N'[$(Schema)].[live_broadcast]', N'U') IS NULL
CREATE TABLE [$(Schema)].[live_broadcast] (
    notification_id bigint            NOT NULL CONSTRAINT PK_live_broadcast PRIMARY KEY,
    topic_id        bigint            NOT NULL CONSTRAINT FK_live_broadcast_topic REFERENCES [$(Schema)].[topic] (id) ON DELETE CASCADE,
    category        varchar(64)       COLLATE Latin1_General_100_BIN2 NULL,
    subject         nvarchar(998)     NULL,
    body            nvarchar(max)     NULL,
    data            nvarchar(max)     NULL CONSTRAINT CK_live_broadcast_data_json CHECK (ISJSON(data) = 1),
    created_at      datetimeoffset(3) NOT NULL CONSTRAINT DF_live_broadcast_created_at DEFAULT (SYSUTCDATETIME()),
    expires_at      datetimeoffset(3) NOT NULL,
    at_most_once    bit               NOT NULL CONSTRAINT DF_live_broadcast_at_most_once DEFAULT (0),
    INDEX IX_live_broadcast_topic (topic_id, created_at),
    INDEX IX_live_broadcast_expires (expires_at)
);
GO
IF OBJECT_ID(N'[$(Schema)].[live_broadcast_receipt]', N'U') IS NULL
CREATE TABLE [$(Schema)].[live_broadcast_receipt] (
    notification_id bigint            NOT NULL CONSTRAINT FK_live_broadcast_receipt_broadcast REFERENCES [$(Schema)].[live_broadcast] (notification_id) ON DELETE CASCADE,
    subscriber_id   varchar(128)      COLLATE Latin1_General_100_BIN2 NOT NULL,
    sent_at         datetimeoffset(3) NULL,
    acked_at        datetimeoffset(3) NULL,
    CONSTRAINT PK_live_broadcast_receipt PRIMARY KEY (notification_id, subscriber_id)
);
GO
