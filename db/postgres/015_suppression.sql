-- Suppression and unsubscribe (idempotent; docs/suppression.md).
-- Apply with: psql -v schema=notifications -f 015_suppression.sql
-- One row per key: a lower-case address ('user@example.com'), or '@' and a domain ('@example.com') for every
-- address at it. reason: hard_bounce (a 5xx to RCPT TO, written by the consumer), complaint, unsubscribed (the
-- one-click endpoint, RFC 8058), manual (scripts/admin suppression add). scope: 'all' stops every notification to the
-- key, 'bulk' only those of priority bulk (an unsubscribe is from bulk mail; transactional mail still goes).
-- A removed entry keeps its row with removed_at set (a tombstone), so that every consumer's cache, which reloads
-- the rows changed since its last look (changed_at), learns of the removal too; adding the key again revives the row.
CREATE TABLE IF NOT EXISTS :"schema".suppression (
    address    varchar(320)  NOT NULL PRIMARY KEY,
    reason     varchar(16)   NOT NULL CONSTRAINT suppression_reason_known CHECK (reason IN ('hard_bounce', 'complaint', 'unsubscribed', 'manual')),
    scope      varchar(8)    NOT NULL CONSTRAINT suppression_scope_known CHECK (scope IN ('all', 'bulk')),
    since      timestamptz   NOT NULL DEFAULT now(),
    detail     varchar(1000) NULL,
    changed_at timestamptz   NOT NULL DEFAULT clock_timestamp(),
    removed_at timestamptz   NULL
);
-- The consumers' refresh reads the rows changed since a watermark.
CREATE INDEX IF NOT EXISTS suppression_changed_at ON :"schema".suppression (changed_at);
-- delivery_log.status gains 'suppressed': not sent, because the recipient or its domain was on the list.
COMMENT ON COLUMN :"schema".delivery_log.status IS 'sending (AtMostOnce mark before send) | sent | suppressed (not sent: on the suppression list)';
-- notification_status answers 'suppressed' for such a notification (the rest as in 010).
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
        SELECT 1, 'suppressed', d.updated_at, d.attempts, NULL, NULL,
               'not sent: the recipient or its domain is on the suppression list (scripts/admin suppression list)'
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
