-- Outcome events (idempotent; docs/outcome-events.md): what became of a notification, pushed to the app as a webhook.
-- Apply with: sqlcmd -v Schema=notifications -i 038_outcome_events.sql
--   webhook_event_subscription  which event types an endpoint takes (scripts/admin webhooks subscribe); none: no events
--   outcome_event               one row per event made: (notification, endpoint, type) is made once, however often the
--                               notification is redelivered; event_id is the event's outbox row (its webhook-id). A later
--                               event of a notification to an endpoint waits until its earlier ones are settled.
IF OBJECT_ID(N'[$(Schema)].[webhook_event_subscription]', N'U') IS NULL
CREATE TABLE [$(Schema)].[webhook_event_subscription] (
    endpoint    varchar(64)       NOT NULL CONSTRAINT FK_webhook_event_subscription_endpoint
        REFERENCES [$(Schema)].[webhook_endpoint] (name) ON DELETE CASCADE,
    event_type  varchar(40)       NOT NULL CONSTRAINT CK_webhook_event_subscription_type CHECK (event_type IN (
        'notification.delivered', 'notification.bounced', 'notification.complained', 'notification.dead_lettered',
        'notification.suppressed', 'notification.opted_out', 'notification.acked', 'notification.expired')),
    created_at  datetimeoffset(3) NOT NULL CONSTRAINT DF_webhook_event_subscription_created_at DEFAULT (SYSUTCDATETIME()),
    CONSTRAINT PK_webhook_event_subscription PRIMARY KEY (endpoint, event_type)
);
GO
IF OBJECT_ID(N'[$(Schema)].[outcome_event]', N'U') IS NULL
CREATE TABLE [$(Schema)].[outcome_event] (
    notification_id bigint            NOT NULL,
    endpoint        varchar(64)       NOT NULL,
    event_type      varchar(40)       NOT NULL,
    event_id        bigint            NOT NULL,
    created_at      datetimeoffset(3) NOT NULL CONSTRAINT DF_outcome_event_created_at DEFAULT (SYSUTCDATETIME()),
    CONSTRAINT PK_outcome_event PRIMARY KEY (notification_id, endpoint, event_type)
);
GO
-- The webhook channel finds an event's predecessors from its own id; the retention cleanup deletes the oldest first.
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_outcome_event_event_id' AND object_id = OBJECT_ID(N'[$(Schema)].[outcome_event]'))
CREATE INDEX IX_outcome_event_event_id ON [$(Schema)].[outcome_event] (event_id);
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_outcome_event_created_at' AND object_id = OBJECT_ID(N'[$(Schema)].[outcome_event]'))
CREATE INDEX IX_outcome_event_created_at ON [$(Schema)].[outcome_event] (created_at);
GO
