-- One answer to "what happened to notification N?" (repeatable: re-applied by `migrate` whenever this file changes;
-- docs/database.md). Defined by 010, answering 'suppressed' since 015, speaking of any receiving server since 017,
-- answering 'maybe_sent' since 021, 'opted_out' since 029, in_flight for an at-most-once 'handing_back' mark, and of
-- notifications for a subscriber or a topic ('fanned_out', 'no_such_audience') and their deliveries since 030: the states
-- and details are PostgreSQL's (db/postgres/repeatable/10_notification_status.sql's header); the later outcome of a sent
-- notification ('bounced', 'complained': the bounce receiver's reports) since 037.
--   SELECT * FROM [notifications].[notification_status](12345);
-- One row: notification_id, state, at, attempts, not_before, reason, detail. State is one of
--   waiting        the row is in the outbox (at = created_at; not_before = its scheduled time, if any)
--   in_flight      claimed and handed to the broker, no outcome yet (being delivered, or waiting for a retry);
--                  also an at-most-once 'sending' mark (at = when it was marked), or a 'handing_back' one (not sent, a
--                  copy on its way: at = when it was handed back)
--   sent           the receiving server (SMTP relay, webhook endpoint, push service) accepted it (at = when it was
--                  recorded, attempts = on which attempt)
--   bounced        sent, then a DSN said it failed for good (at = when the report came; since 037, docs/bounces.md)
--   complained     sent, then the recipient reported it as spam (ARF; since 037)
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
-- "in_flight without a record" is inferred: the id is at most IDENT_CURRENT of the outbox and above the
-- highest id whose records the retention cleanup deleted. An id inserted explicitly above the identity, once
-- claimed, answers unknown; an identity value of a rolled-back insert answers in_flight.
-- An inline table-valued function: the optimizer expands it into the caller's query (seeks on each key).
-- CREATE OR ALTER keeps the grants of repeatable/90_roles.sql.
CREATE OR ALTER FUNCTION [$(Schema)].[notification_status](@id bigint)
RETURNS TABLE
AS
RETURN
(
    SELECT TOP (1) @id AS notification_id, CAST(s.state AS varchar(16)) AS state, s.at, s.attempts, s.not_before,
           CAST(s.reason AS nvarchar(1000)) AS reason, CAST(s.detail AS nvarchar(300)) AS detail
    FROM (
        -- A later outcome outranks 'sent': the receiving server accepted it, and then it bounced or drew a complaint.
        SELECT 0 AS rank, x.outcome AS state, x.reported_at AS at, x.attempts, CAST(NULL AS datetimeoffset(3)) AS not_before,
               CAST(COALESCE(x.status + N' ', N'') + COALESCE(x.diagnostic, N'') AS nvarchar(1000)) AS reason,
               CAST(x.outcome + COALESCE(N' ' + CAST(DATEDIFF(minute, x.accepted_at, x.reported_at) AS nvarchar(20)) + N' min after it was accepted', N'')
                    + N': ' + COALESCE(x.diagnostic, x.status, N'') + N' (' + x.recipient + N'; docs/bounces.md)' AS nvarchar(300)) AS detail
        FROM (SELECT TOP (1) o.outcome, o.reported_at, o.status, o.diagnostic, o.recipient, d.updated_at AS accepted_at, d.attempts
              FROM [$(Schema)].[notification_outcome] AS o
              LEFT JOIN [$(Schema)].[delivery_log] AS d ON d.notification_id = o.notification_id AND d.status = 'sent'
              WHERE o.notification_id = @id AND o.outcome IN ('bounced', 'complained')
              ORDER BY o.reported_at DESC) AS x
        UNION ALL
        SELECT 1, 'sent', d.updated_at, d.attempts, NULL,
               NULL, N'accepted by the receiving server (SMTP relay, webhook endpoint or push service)'
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'sent'
        UNION ALL
        SELECT 1, 'suppressed', d.updated_at, d.attempts, NULL, NULL,
               N'not sent: the recipient (address, domain or push token) is on the suppression list (scripts/admin suppression list)'
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'suppressed'
        UNION ALL
        SELECT 1, 'opted_out', d.updated_at, d.attempts, NULL, d.reason,
               N'not sent: the subscriber opted out of its category on this channel (docs/preferences.md; scripts/admin subscribers show)'
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'opted_out'
        UNION ALL
        SELECT 1, 'live_acked', d.updated_at, d.attempts, NULL, d.reason,
               N'not sent: it was the push copy of a live delivery an app acked in time (docs/live.md)'
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'live_acked'
        UNION ALL
        SELECT 2, 'waiting', o.created_at, NULL, o.not_before, NULL,
               CASE WHEN o.not_before > SYSDATETIMEOFFSET()
                    THEN N'in the outbox, scheduled: not sent before not_before (' + o.priority + N' priority)'
                    ELSE N'in the outbox, waiting to be claimed (' + o.priority + N' priority)' END
        FROM [$(Schema)].[outbox] AS o WHERE o.id = @id
        UNION ALL
        SELECT 2, CASE j.state WHEN 'running' THEN 'in_flight' WHEN 'done' THEN 'fanned_out' ELSE 'no_such_audience' END,
               COALESCE(j.finished_at, j.created_at), NULL, NULL, j.reason,
               CASE WHEN j.state = 'no_such_audience' THEN N'not sent: ' + j.audience + N' does not exist'
                    ELSE CASE WHEN j.state = 'running' THEN N'fanning out to ' ELSE N'fanned out to ' END + j.audience
                         + N' (' + j.channels + N'): ' + CAST(j.published AS nvarchar(20)) + N' deliveries published, '
                         + CAST(j.opted_out AS nvarchar(20)) + N' opted out, ' + CAST(j.no_contact AS nvarchar(20))
                         + N' subscribers without a contact point (scripts/admin show lists them)' END
        FROM [$(Schema)].[fanout_job] AS j WHERE j.id = @id
        UNION ALL
        SELECT 3, 'dead_lettered', x.dead_lettered_at, x.attempts, NULL, x.reason,
               N'moved to the dead-letter queue, not sent'
               + CASE WHEN x.copies > 1 THEN N' (dead-lettered ' + CAST(x.copies AS nvarchar(20)) + N' times, the latest shown)' ELSE N'' END
               + N' (scripts/admin dead-letters show --id ' + CAST(@id AS nvarchar(20)) + N')'
        FROM (SELECT TOP (1) d.dead_lettered_at, d.attempts, d.reason, COUNT(*) OVER () AS copies
              FROM [$(Schema)].[dead_letter] AS d WHERE d.notification_id = @id
              ORDER BY d.dead_lettered_at DESC, d.id DESC) AS x
        UNION ALL
        SELECT 4, 'rejected', r.rejected_at, NULL, NULL, r.reason, N'refused by the producer: never published, never sent'
        FROM [$(Schema)].[rejected] AS r WHERE r.id = @id
        UNION ALL
        SELECT 5, 'maybe_sent', d.updated_at, d.attempts, NULL, d.reason,
               N'at most once: handed to the receiving server, which did not confirm it (no answer, or an error answer that does not say it was not taken); not sent again'
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'sending' AND d.reason IS NOT NULL
        UNION ALL
        SELECT 5, 'in_flight', d.updated_at, NULL, NULL, NULL,
               N'at most once: marked sending; a mark older than a send takes was cut off (its process died) or its outcome not recorded: not sent again'
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'sending' AND d.reason IS NULL
        UNION ALL
        SELECT 5, 'in_flight', d.updated_at, NULL, NULL, NULL,
               N'at most once: not sent, handed back as a copy (a retry, or after a breaker or pause), which takes the mark over when it comes; a mark left by a hand-back cut off (its process died, or the broker refused the copy) is taken over by a later copy, if any'
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'handing_back'
        UNION ALL
        SELECT 6,
               CASE WHEN @id <= COALESCE(k.max_deleted_id, 0) THEN 'unknown' ELSE 'in_flight' END, NULL, NULL, NULL, NULL,
               CASE WHEN @id <= COALESCE(k.max_deleted_id, 0)
                    THEN N'no record: removed by the retention cleanup (ids up to ' + CAST(k.max_deleted_id AS nvarchar(20)) + N'), or never committed'
                    ELSE N'claimed from the outbox and handed to the broker: being delivered or waiting for a retry' END
        FROM (SELECT 1 AS x) AS one LEFT JOIN [$(Schema)].[retention] AS k ON k.job = 'cleanup'
        WHERE @id > 0 AND @id <= COALESCE(IDENT_CURRENT(N'[$(Schema)].[outbox]'), 0)
        UNION ALL
        SELECT 6, CASE a.outcome WHEN 'opted_out' THEN 'opted_out' ELSE 'in_flight' END, NULL, NULL, NULL,
               CASE WHEN a.outcome = 'opted_out' THEN N'held back by the fan-out: the subscriber''s preference or the category''s default' END,
               CASE WHEN a.outcome = 'opted_out'
                    THEN N'not sent: the subscriber opted out of its category on this channel (delivery of notification ' + CAST(a.parent_id AS nvarchar(20)) + N')'
                    ELSE N'a delivery of notification ' + CAST(a.parent_id AS nvarchar(20)) + N', handed to the broker: being delivered or waiting for a retry' END
        FROM [$(Schema)].[audience_delivery] AS a WHERE a.id = @id AND a.outcome <> 'no_contact'
        UNION ALL
        SELECT 7, 'unknown', NULL, NULL, NULL, NULL, N'no such notification: the outbox never issued this id'
    ) AS s
    ORDER BY s.rank
);
GO
