-- The live channel's pending notifications (re-runnable; issue 30, branch live: the gateway's first slice).
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 032_live.sql
--   live_pending   one row per live notification not yet acked by its subscriber's app: written by the consumer's live
--                  channel, sent by the gateway on connect in id order, deleted by the client's ack; expired rows are
--                  not sent. The subscriber is the app's own id (the token's sub).
SET search_path = :"schema";
CREATE TABLE IF NOT EXISTS live_pending (
    notification_id bigint       PRIMARY KEY,
    subscriber_id   varchar(128) COLLATE "C" NOT NULL,
    subject         varchar(998) NULL,
    body            text         NULL,
    data            text         NULL CONSTRAINT live_pending_data_json CHECK (json_typeof(data::json) <> ''),
    created_at      timestamptz  NOT NULL DEFAULT now(),
    expires_at      timestamptz  NULL
);
CREATE INDEX IF NOT EXISTS live_pending_subscriber ON live_pending (subscriber_id, notification_id);
RESET search_path;
