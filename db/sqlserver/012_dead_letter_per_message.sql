-- One dead_letter row per dead-lettered message, also for messages without a notification id (idempotent).
-- Apply with: sqlcmd -v Schema=notifications -i 012_dead_letter_per_message.sql
--
-- Until 011 a notification id had at most one row (a second dead letter of the id replaced it), and the
-- consumer gave an id-less JSON body id 0, so id-less dead letters replaced each other: the table missed
-- dead letters the queue held. Now every dead letter is its own row, named by letter_key, which the
-- dead-lettered message carries in its x-dead-key header (rows from before have none); the row also keeps
-- what identifies a message without an id: its AMQP message id, type, content type and its bytes.
-- Consumers from before 012 upsert on the unique index this drops (MERGE on notification_id, merging rows):
-- stop them, apply this, then start this version's consumers.
IF COL_LENGTH(N'[$(Schema)].[dead_letter]', N'letter_key') IS NULL
ALTER TABLE [$(Schema)].[dead_letter] ADD letter_key uniqueidentifier NULL, message_id nvarchar(255) NULL,
    message_type nvarchar(255) NULL, content_type nvarchar(255) NULL, body varbinary(max) NULL;
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'UX_dead_letter_letter_key' AND object_id = OBJECT_ID(N'[$(Schema)].[dead_letter]'))
CREATE UNIQUE NONCLUSTERED INDEX UX_dead_letter_letter_key
    ON [$(Schema)].[dead_letter] (letter_key) WHERE letter_key IS NOT NULL;
GO
-- notification_status reads the latest row of an id.
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_dead_letter_notification_id_at' AND object_id = OBJECT_ID(N'[$(Schema)].[dead_letter]'))
CREATE NONCLUSTERED INDEX IX_dead_letter_notification_id_at
    ON [$(Schema)].[dead_letter] (notification_id, dead_lettered_at) WHERE notification_id IS NOT NULL;
GO
IF EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'UX_dead_letter_notification_id' AND object_id = OBJECT_ID(N'[$(Schema)].[dead_letter]'))
DROP INDEX UX_dead_letter_notification_id ON [$(Schema)].[dead_letter];
GO
-- notification_status (010) with more than one dead_letter row of an id (e.g. a retry copy dead-lettered
-- too): it answers dead_lettered once, with the latest row's reason, attempts and instant, and says how many.
CREATE OR ALTER FUNCTION [$(Schema)].[notification_status](@id bigint)
RETURNS TABLE
AS
RETURN
(
    SELECT TOP (1) @id AS notification_id, CAST(s.state AS varchar(16)) AS state, s.at, s.attempts, s.not_before,
           CAST(s.reason AS nvarchar(1000)) AS reason, CAST(s.detail AS nvarchar(300)) AS detail
    FROM (
        SELECT 1 AS rank, 'sent' AS state, d.updated_at AS at, d.attempts, CAST(NULL AS datetimeoffset(3)) AS not_before,
               CAST(NULL AS nvarchar(1000)) AS reason, CAST(N'accepted by the SMTP server' AS nvarchar(300)) AS detail
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'sent'
        UNION ALL
        SELECT 2, 'waiting', o.created_at, NULL, o.not_before, NULL,
               CASE WHEN o.not_before > SYSDATETIMEOFFSET()
                    THEN N'in the outbox, scheduled: not sent before not_before (' + o.priority + N' priority)'
                    ELSE N'in the outbox, waiting to be claimed (' + o.priority + N' priority)' END
        FROM [$(Schema)].[outbox] AS o WHERE o.id = @id
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
        SELECT 5, 'in_flight', d.updated_at, NULL, NULL, NULL,
               N'at most once: marked sending; a mark older than a send takes means the outcome is unknown (connection lost after the message was handed over)'
        FROM [$(Schema)].[delivery_log] AS d WHERE d.notification_id = @id AND d.status = 'sending'
        UNION ALL
        SELECT 6,
               CASE WHEN @id <= COALESCE(k.max_deleted_id, 0) THEN 'unknown' ELSE 'in_flight' END, NULL, NULL, NULL, NULL,
               CASE WHEN @id <= COALESCE(k.max_deleted_id, 0)
                    THEN N'no record: removed by the retention cleanup (ids up to ' + CAST(k.max_deleted_id AS nvarchar(20)) + N'), or never committed'
                    ELSE N'claimed from the outbox and handed to the broker: being delivered or waiting for a retry' END
        FROM (SELECT 1 AS x) AS one LEFT JOIN [$(Schema)].[retention] AS k ON k.job = 'cleanup'
        WHERE @id > 0 AND @id <= COALESCE(IDENT_CURRENT(N'[$(Schema)].[outbox]'), 0)
        UNION ALL
        SELECT 7, 'unknown', NULL, NULL, NULL, NULL, N'no such notification: the outbox never issued this id'
    ) AS s
    ORDER BY s.rank
);
GO
