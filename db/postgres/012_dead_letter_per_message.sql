-- One dead_letter row per dead-lettered message, also for messages without a notification id (idempotent).
-- Apply with: psql -v schema=notifications -f 012_dead_letter_per_message.sql
--
-- Until 011 a notification id had at most one row (a second dead letter of the id replaced it), and the
-- consumer gave an id-less JSON body id 0, so id-less dead letters replaced each other: the table missed
-- dead letters the queue held. Now every dead letter is its own row, named by letter_key, which the
-- dead-lettered message carries in its x-dead-key header (rows from before have none); the row also keeps
-- what identifies a message without an id: its AMQP message id, type, content type and its bytes.
-- Consumers from before 012 upsert on the unique index this drops (on PostgreSQL that fails and the message is
-- given back): stop them, apply this, then start this version's consumers.
ALTER TABLE :"schema".dead_letter ADD COLUMN IF NOT EXISTS letter_key   uuid         NULL;
ALTER TABLE :"schema".dead_letter ADD COLUMN IF NOT EXISTS message_id   varchar(255) NULL;
ALTER TABLE :"schema".dead_letter ADD COLUMN IF NOT EXISTS message_type varchar(255) NULL;
ALTER TABLE :"schema".dead_letter ADD COLUMN IF NOT EXISTS content_type varchar(255) NULL;
ALTER TABLE :"schema".dead_letter ADD COLUMN IF NOT EXISTS body         bytea        NULL;
CREATE UNIQUE INDEX IF NOT EXISTS dead_letter_letter_key
    ON :"schema".dead_letter (letter_key) WHERE letter_key IS NOT NULL;
-- notification_status reads the latest row of an id.
CREATE INDEX IF NOT EXISTS dead_letter_notification_id_at
    ON :"schema".dead_letter (notification_id, dead_lettered_at) WHERE notification_id IS NOT NULL;
DROP INDEX IF EXISTS :"schema".dead_letter_notification_id;

-- notification_status (010) with more than one dead_letter row of an id (e.g. a retry copy dead-lettered
-- too): it answers dead_lettered once, with the latest row's reason, attempts and instant, and says how many.
CREATE OR REPLACE FUNCTION :"schema".notification_status(p_id bigint)
RETURNS TABLE (notification_id bigint, state varchar(16), at timestamptz, attempts integer,
               not_before timestamptz, reason varchar(1000), detail varchar(300))
LANGUAGE sql STABLE
SET search_path = :"schema", pg_catalog
AS $fn$
    SELECT p_id, s.state::varchar(16), s.at, s.attempts, s.not_before, s.reason::varchar(1000), s.detail::varchar(300)
    FROM (
        SELECT 1 AS rank, 'sent' AS state, d.updated_at AS at, d.attempts, NULL::timestamptz AS not_before,
               NULL::text AS reason, 'accepted by the SMTP server' AS detail
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'sent'
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
