-- Live broadcasts to a topic (idempotent; issue 30, docs/live.md#broadcasts-to-a-topic).
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 042_live_broadcasts.sql
--   live_broadcast          one row per live notification to a topic (a row of channels 'live' alone to 'topic:<name>'):
--                           written by the consumer's live channel instead of a row per subscriber; every gateway node
--                           sends it to its connections of the topic's subscribers (subscribed before it was written,
--                           the category's preference or default applied); expired rows are not sent
--   live_broadcast_receipt  a subscriber's state of one broadcast: acked_at when an app of it acked (never sent again),
--                           sent_at when a gateway marked it sent at most once (never sent again either)
SET search_path = :"schema";
CREATE TABLE IF NOT EXISTS live_broadcast (
    notification_id bigint       PRIMARY KEY,
    topic_id        bigint       NOT NULL REFERENCES topic (id) ON DELETE CASCADE,
    category        varchar(64)  COLLATE "C" NULL,
    subject         varchar(998) NULL,
    body            text         NULL,
    data            text         NULL CONSTRAINT live_broadcast_data_json CHECK (json_typeof(data::json) <> ''),
    created_at      timestamptz  NOT NULL DEFAULT now(),
    expires_at      timestamptz  NOT NULL,
    at_most_once    boolean      NOT NULL DEFAULT false
);
-- A connecting app's broadcasts: its topics' rows since it subscribed.
CREATE INDEX IF NOT EXISTS live_broadcast_topic ON live_broadcast (topic_id, created_at);
-- The retention cleanup.
CREATE INDEX IF NOT EXISTS live_broadcast_expires ON live_broadcast (expires_at);
CREATE TABLE IF NOT EXISTS live_broadcast_receipt (
    notification_id bigint       NOT NULL REFERENCES live_broadcast (notification_id) ON DELETE CASCADE,
    subscriber_id   varchar(128) COLLATE "C" NOT NULL,
    sent_at         timestamptz  NULL,
    acked_at        timestamptz  NULL,
    PRIMARY KEY (notification_id, subscriber_id)
);
RESET search_path;
