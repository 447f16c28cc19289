-- Outcome events (re-runnable; docs/outcome-events.md): what became of a notification, pushed to the app as a webhook.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 038_outcome_events.sql
--   webhook_event_subscription  which event types an endpoint takes (scripts/admin webhooks subscribe); none: no events
--   outcome_event               one row per event made: (notification, endpoint, type) is made once, however often the
--                               notification is redelivered; event_id is the event's outbox row (its webhook-id). A later
--                               event of a notification to an endpoint waits until its earlier ones are settled.
CREATE TABLE IF NOT EXISTS :"schema".webhook_event_subscription (
    endpoint    varchar(64)  NOT NULL REFERENCES :"schema".webhook_endpoint (name) ON DELETE CASCADE,
    event_type  varchar(40)  NOT NULL CONSTRAINT webhook_event_subscription_type_known CHECK (event_type IN (
        'notification.delivered', 'notification.bounced', 'notification.complained', 'notification.dead_lettered',
        'notification.suppressed', 'notification.opted_out', 'notification.acked', 'notification.expired')),
    created_at  timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (endpoint, event_type)
);
CREATE TABLE IF NOT EXISTS :"schema".outcome_event (
    notification_id bigint       NOT NULL,
    endpoint        varchar(64)  NOT NULL,
    event_type      varchar(40)  NOT NULL,
    event_id        bigint       NOT NULL,
    created_at      timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (notification_id, endpoint, event_type)
);
-- The webhook channel finds an event's predecessors from its own id; the retention cleanup deletes the oldest first.
CREATE INDEX IF NOT EXISTS outcome_event_event_id ON :"schema".outcome_event (event_id);
CREATE INDEX IF NOT EXISTS outcome_event_created_at ON :"schema".outcome_event (created_at);
