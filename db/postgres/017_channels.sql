-- Channels (idempotent): a row names how it leaves, email (the default), webhook or push (docs/channels.md).
-- Apply with: psql -v schema=notifications -f 017_channels.sql
--   channel: 'email' | 'webhook' | 'push'. Every existing row and every insert that leaves it out stays email.
--   data:    a JSON value. A webhook's payload data ({"type": subject, "timestamp": ..., "data": data} is what the
--            endpoint receives); a push notification's custom data (a JSON object of string values).
-- What each channel reads from the other columns:
--   email    recipient = address, subject, body, ... as before
--   webhook  recipient = the endpoint's name (scripts/admin webhooks add), subject = the event type, data = payload data
--   push     recipient = 'fcm:<registration token>' or 'apns:<device token>', subject = title, body = text, data
-- A constant default: PostgreSQL 11+ adds the column without rewriting the table.
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS channel varchar(8) NOT NULL DEFAULT 'email'
    CONSTRAINT outbox_channel_known CHECK (channel IN ('email', 'webhook', 'push'));
-- text, not jsonb: the consumer sends the text as written (jsonb would reorder keys). Not JSON fails the cast: an error.
-- (A NULL data makes the check NULL, which passes; "IS NOT NULL" would have refused every row without data.)
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS data text NULL;
ALTER TABLE :"schema".outbox DROP CONSTRAINT IF EXISTS outbox_data_json;
ALTER TABLE :"schema".outbox ADD CONSTRAINT outbox_data_json CHECK (json_typeof(data::json) <> '');
-- 014's "prepared or templated" holds for email; a webhook or push row has no template, and its subject and body
-- are the channel's (a webhook has no body, a push row may carry data alone): the channel's rules check them.
ALTER TABLE :"schema".outbox DROP CONSTRAINT IF EXISTS outbox_prepared_or_templated;
ALTER TABLE :"schema".outbox ADD CONSTRAINT outbox_prepared_or_templated CHECK (
    (channel = 'email' AND template_name IS NULL AND template_data IS NULL AND subject IS NOT NULL AND body IS NOT NULL)
    OR (channel = 'email' AND template_name IS NOT NULL AND template_data IS NOT NULL AND subject IS NULL AND body IS NULL)
    OR (channel <> 'email' AND template_name IS NULL AND template_data IS NULL));
-- A push token the provider says is gone for good (FCM UNREGISTERED, APNs 410 Unregistered / 400 BadDeviceToken) is
-- suppressed with the reason 'unregistered'; the app reads them (scripts/admin suppression list --reason unregistered).
ALTER TABLE :"schema".suppression DROP CONSTRAINT IF EXISTS suppression_reason_known;
ALTER TABLE :"schema".suppression ADD CONSTRAINT suppression_reason_known
    CHECK (reason IN ('hard_bounce', 'complaint', 'unsubscribed', 'manual', 'unregistered'));
-- notification_status: 'sent' speaks of the receiving server, whichever channel (the rest as in 015).
CREATE OR REPLACE FUNCTION :"schema".notification_status(p_id bigint)
RETURNS TABLE (notification_id bigint, state varchar(16), at timestamptz, attempts integer,
               not_before timestamptz, reason varchar(1000), detail varchar(300))
LANGUAGE sql STABLE
SET search_path = :"schema", pg_catalog
AS $fn$
    SELECT p_id, s.state::varchar(16), s.at, s.attempts, s.not_before, s.reason::varchar(1000), s.detail::varchar(300)
    FROM (
        SELECT 1 AS rank, 'sent' AS state, d.updated_at AS at, d.attempts, NULL::timestamptz AS not_before,
               NULL::text AS reason, 'accepted by the receiving server (SMTP relay, webhook endpoint or push service)' AS detail
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'sent'
        UNION ALL
        SELECT 1, 'suppressed', d.updated_at, d.attempts, NULL, NULL,
               'not sent: the recipient (address, domain or push token) is on the suppression list (scripts/admin suppression list)'
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'suppressed'
        UNION ALL
        SELECT 2, 'waiting', o.created_at, NULL, o.not_before, NULL,
               CASE WHEN o.not_before > now() THEN 'in the outbox, scheduled: not sent before not_before (' || o.priority || ' priority)'
                    ELSE 'in the outbox, waiting to be claimed (' || o.priority || ' priority)' END
        FROM outbox AS o WHERE o.id = p_id
        UNION ALL
        SELECT 3, 'dead_lettered', x.dead_lettered_at, x.attempts, NULL, x.reason,
               'moved to the dead-letter queue, not sent'
               || CASE WHEN x.copies > 1 THEN ' (dead-lettered ' || x.copies || ' times, the latest shown)' ELSE '' END
               || ' (scripts/admin dead-letters show --id ' || p_id || ')'
        FROM (SELECT d.dead_lettered_at, d.attempts, d.reason, count(*) OVER () AS copies
              FROM dead_letter AS d WHERE d.notification_id = p_id
              ORDER BY d.dead_lettered_at DESC, d.id DESC LIMIT 1) AS x
        UNION ALL
        SELECT 4, 'rejected', r.rejected_at, NULL, NULL, r.reason, 'refused by the producer: never published, never sent'
        FROM rejected AS r WHERE r.id = p_id
        UNION ALL
        SELECT 5, 'in_flight', d.updated_at, NULL, NULL, NULL,
               'at most once: marked sending; a mark older than a send takes means the outcome is unknown (connection lost after the message was handed over)'
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'sending'
        UNION ALL
        SELECT 6,
               CASE WHEN p_id <= COALESCE(k.max_deleted_id, 0) THEN 'unknown' ELSE 'in_flight' END, NULL, NULL, NULL, NULL,
               CASE WHEN p_id <= COALESCE(k.max_deleted_id, 0)
                    THEN 'no record: removed by the retention cleanup (ids up to ' || k.max_deleted_id || '), or never committed'
                    ELSE 'claimed from the outbox and handed to the broker: being delivered or waiting for a retry' END
        FROM (SELECT 1) AS one (x) LEFT JOIN retention AS k ON k.job = 'cleanup'
        WHERE p_id > 0 AND p_id <= COALESCE(pg_sequence_last_value(pg_get_serial_sequence('outbox', 'id')::regclass), 0)
        UNION ALL
        SELECT 7, 'unknown', NULL, NULL, NULL, NULL, 'no such notification: the outbox never issued this id'
    ) AS s
    ORDER BY s.rank
    LIMIT 1
$fn$;
