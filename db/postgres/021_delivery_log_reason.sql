-- At most once, a send whose outcome is unknown is recorded with why (idempotent; docs/reliability.md, "At most once").
-- Apply with: psql -v schema=notifications -f 021_delivery_log_reason.sql
--   delivery_log.reason: on a 'sending' mark whose send ended maybe delivered: the answer was lost after the message was
--   handed over, or an HTTP 408/5xx came to a request written in full. The mark stays (the notification is not sent again);
--   attempts holds the attempt that sent it. NULL on every other row.
ALTER TABLE :"schema".delivery_log ADD COLUMN IF NOT EXISTS reason varchar(1000) NULL;
COMMENT ON COLUMN :"schema".delivery_log.reason IS 'at most once: why a sending mark''s send has an unknown outcome (maybe delivered); NULL otherwise';
-- notification_status: such a mark answers 'maybe_sent' with its reason and attempt; a mark without one stays 'in_flight'
-- (the rest as in 017). Replacing the function resets SECURITY DEFINER (020), so it is said again here.
CREATE OR REPLACE FUNCTION :"schema".notification_status(p_id bigint)
RETURNS TABLE (notification_id bigint, state varchar(16), at timestamptz, attempts integer,
               not_before timestamptz, reason varchar(1000), detail varchar(300))
LANGUAGE sql STABLE
SECURITY DEFINER
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
        SELECT 5, 'maybe_sent', d.updated_at, d.attempts, NULL, d.reason,
               'at most once: handed to the receiving server, which did not confirm it (no answer, or an error answer that does not say it was not taken); not sent again'
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'sending' AND d.reason IS NOT NULL
        UNION ALL
        SELECT 5, 'in_flight', d.updated_at, NULL, NULL, NULL,
               'at most once: marked sending; a mark older than a send takes was cut off (its process died) or its outcome not recorded: not sent again'
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'sending' AND d.reason IS NULL
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
