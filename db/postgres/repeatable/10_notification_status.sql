-- One answer to "what happened to notification N?" (repeatable: re-applied by `migrate` whenever this file changes;
-- docs/database.md). Defined by 010, answering 'suppressed' since 015, speaking of any receiving server since 017,
-- answering 'maybe_sent' since 021, 'opted_out' since 029, in_flight for an at-most-once 'handing_back' mark, and of
-- notifications for a subscriber or a topic and their deliveries since 030, and the later outcome of a sent one
-- ('bounced', 'complained': the bounce receiver's reports, 037) since 037.
--   SELECT * FROM notifications.notification_status(12345);
-- One row: notification_id, state, at, attempts, not_before, reason, detail. State is one of
--   waiting        the row is in the outbox (at = created_at; not_before = its scheduled time, if any)
--   in_flight      claimed and handed to the broker, no outcome yet (being delivered, or waiting for a retry);
--                  also an at-most-once 'sending' mark (at = when it was marked), or a 'handing_back' one (not sent, a
--                  copy on its way: at = when it was handed back)
--   sent           the receiving server (SMTP relay, webhook endpoint, push service) accepted it (at = when it was
--                  recorded, attempts = on which attempt)
--   bounced        sent, then a DSN said it failed for good (at = when the report came; reason: the status and the
--                  server's words; detail: how long after it was accepted; since 037, docs/bounces.md)
--   complained     sent, then the recipient reported it as spam (ARF; at, reason: the feedback type; since 037)
--   suppressed     not sent: the recipient is on the suppression list (at = when that was recorded)
--   live_acked     not sent: the push copy of a live delivery (channels 'live>push') whose app acked it in time (at,
--                  reason: which live delivery; since 034)
--   opted_out      not sent: a subscriber of the recipient opted out of the row's category on its channel (at, reason:
--                  who, by their preference or the category's default; since 029)
--   dead_lettered  moved to the dead-letter queue (at, attempts, reason); an id dead-lettered more than once
--                  answers with its latest dead_letter row, and the detail says how many times
--   rejected       the producer refused it, never published (at, reason)
--   maybe_sent     at most once: marked sending and handed over, outcome unknown (at, attempts, reason; since 021)
--   unknown        no such id was ever issued by the outbox, or its records were removed by retention
--   fanned_out     a row for a subscriber or a topic whose deliveries were all handed to the broker (at = when; detail
--                  counts them; each delivery answers for itself). While it fans out: in_flight (since 030)
--   no_such_audience  a row for a subscriber or a topic that did not exist: nothing sent (at, reason; since 030)
-- A fan-out delivery's id (from 2^62, fanout_delivery_id) without a record is in_flight, or opted_out when the fan-out
-- held it back for the subscriber's preference (reason says so).
-- "in_flight without a record" is inferred: the id is at most the outbox identity's last value and above the
-- highest id whose records the retention cleanup deleted. An id inserted explicitly above the identity, once
-- claimed, answers unknown; an identity value of a rolled-back insert answers in_flight.
-- SECURITY DEFINER: it reads the delivery log, dead letters and rejects, which the app may not read; it runs with its
-- owner's rights, its search_path fixed to the schema and pg_catalog. The function body is read with that search_path
-- (psql does not substitute inside $fn$ ... $fn$). CREATE OR REPLACE keeps the grants of repeatable/90_roles.sql.
CREATE OR REPLACE FUNCTION :"schema".notification_status(p_id bigint)
RETURNS TABLE (notification_id bigint, state varchar(16), at timestamptz, attempts integer,
               not_before timestamptz, reason varchar(1000), detail varchar(300))
LANGUAGE sql STABLE
SECURITY DEFINER
SET search_path = :"schema", pg_catalog
AS $fn$
    SELECT p_id, s.state::varchar(16), s.at, s.attempts, s.not_before, s.reason::varchar(1000), s.detail::varchar(300)
    FROM (
        -- A later outcome outranks 'sent': the receiving server accepted it, and then it bounced or drew a complaint.
        SELECT 0 AS rank, x.outcome AS state, x.reported_at AS at, x.attempts, NULL::timestamptz AS not_before,
               (COALESCE(x.status || ' ', '') || COALESCE(x.diagnostic, '')) AS reason,
               x.outcome || COALESCE(' ' || round(extract(epoch FROM x.reported_at - x.accepted_at) / 60)::bigint || ' min after it was accepted', '')
               || ': ' || COALESCE(x.diagnostic, x.status, '') || ' (' || x.recipient || '; docs/bounces.md)' AS detail
        FROM (SELECT o.outcome, o.reported_at, o.status, o.diagnostic, o.recipient, d.updated_at AS accepted_at, d.attempts
              FROM notification_outcome AS o LEFT JOIN delivery_log AS d ON d.notification_id = o.notification_id AND d.status = 'sent'
              WHERE o.notification_id = p_id AND o.outcome IN ('bounced', 'complained')
              ORDER BY o.reported_at DESC LIMIT 1) AS x
        UNION ALL
        SELECT 1, 'sent', d.updated_at, d.attempts, NULL,
               NULL, 'accepted by the receiving server (SMTP relay, webhook endpoint or push service)' AS detail
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'sent'
        UNION ALL
        SELECT 1, 'suppressed', d.updated_at, d.attempts, NULL, NULL,
               'not sent: the recipient (address, domain or push token) is on the suppression list (scripts/admin suppression list)'
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'suppressed'
        UNION ALL
        SELECT 1, 'opted_out', d.updated_at, d.attempts, NULL, d.reason,
               'not sent: the subscriber opted out of its category on this channel (docs/preferences.md; scripts/admin subscribers show)'
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'opted_out'
        UNION ALL
        SELECT 1, 'live_acked', d.updated_at, d.attempts, NULL, d.reason,
               'not sent: it was the push copy of a live delivery an app acked in time (docs/live.md)'
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'live_acked'
        UNION ALL
        SELECT 2, 'waiting', o.created_at, NULL, o.not_before, NULL,
               CASE WHEN o.not_before > now() THEN 'in the outbox, scheduled: not sent before not_before (' || o.priority || ' priority)'
                    ELSE 'in the outbox, waiting to be claimed (' || o.priority || ' priority)' END
        FROM outbox AS o WHERE o.id = p_id
        UNION ALL
        SELECT 2, CASE j.state WHEN 'running' THEN 'in_flight' WHEN 'done' THEN 'fanned_out' ELSE 'no_such_audience' END,
               COALESCE(j.finished_at, j.created_at), NULL, NULL, j.reason,
               CASE WHEN j.state = 'no_such_audience' THEN 'not sent: ' || j.audience || ' does not exist'
                    ELSE CASE WHEN j.state = 'running' THEN 'fanning out to ' ELSE 'fanned out to ' END || j.audience
                         || ' (' || j.channels || '): ' || j.published || ' deliveries published, ' || j.opted_out
                         || ' opted out, ' || j.no_contact || ' subscribers without a contact point (scripts/admin show lists them)' END
        FROM fanout_job AS j WHERE j.id = p_id
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
        SELECT 5, 'in_flight', d.updated_at, NULL, NULL, NULL,
               'at most once: not sent, handed back as a copy (a retry, or after a breaker or pause), which takes the mark over when it comes; a mark left by a hand-back cut off (its process died, or the broker refused the copy) is taken over by a later copy, if any'
        FROM delivery_log AS d WHERE d.notification_id = p_id AND d.status = 'handing_back'
        UNION ALL
        SELECT 6,
               CASE WHEN p_id <= COALESCE(k.max_deleted_id, 0) THEN 'unknown' ELSE 'in_flight' END, NULL, NULL, NULL, NULL,
               CASE WHEN p_id <= COALESCE(k.max_deleted_id, 0)
                    THEN 'no record: removed by the retention cleanup (ids up to ' || k.max_deleted_id || '), or never committed'
                    ELSE 'claimed from the outbox and handed to the broker: being delivered or waiting for a retry' END
        FROM (SELECT 1) AS one (x) LEFT JOIN retention AS k ON k.job = 'cleanup'
        WHERE p_id > 0 AND p_id <= COALESCE(pg_sequence_last_value(pg_get_serial_sequence('outbox', 'id')::regclass), 0)
        UNION ALL
        SELECT 6, CASE a.outcome WHEN 'opted_out' THEN 'opted_out' ELSE 'in_flight' END, NULL, NULL, NULL,
               CASE WHEN a.outcome = 'opted_out' THEN 'held back by the fan-out: the subscriber''s preference or the category''s default' END,
               CASE WHEN a.outcome = 'opted_out'
                    THEN 'not sent: the subscriber opted out of its category on this channel (delivery of notification ' || a.parent_id || ')'
                    ELSE 'a delivery of notification ' || a.parent_id || ', handed to the broker: being delivered or waiting for a retry' END
        FROM audience_delivery AS a WHERE a.id = p_id AND a.outcome <> 'no_contact'
        UNION ALL
        SELECT 7, 'unknown', NULL, NULL, NULL, NULL, 'no such notification: the outbox never issued this id'
    ) AS s
    ORDER BY s.rank
    LIMIT 1
$fn$;

-- Functions are executable by PUBLIC when created: not this one (90_roles.sql grants it to the app and the admin tool).
REVOKE ALL ON FUNCTION :"schema".notification_status(bigint) FROM PUBLIC;
