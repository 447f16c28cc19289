-- One dead_letter row per dead-lettered message, also for messages without a notification id (idempotent).
-- Apply with: sqlcmd -v Schema=notifications -i 012_dead_letter_per_message.sql
--
-- Until 011 a notification id had at most one row (a second dead letter of the id replaced it), and the
-- consumer gave an id-less JSON body id 0, so id-less dead letters replaced each other: the table missed
-- dead letters the queue held. Now every dead letter is its own row, named by letter_key, which the
-- dead-lettered message carries in its x-dead-key header (rows from before have none); the row also keeps
-- what identifies a message without an id: its AMQP message id, type, content type and its bytes.
-- notification_status (010, re-applied like every file) answers an id with several rows once, by its latest.
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
