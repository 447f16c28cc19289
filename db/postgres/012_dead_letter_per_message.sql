-- One dead_letter row per dead-lettered message, also for messages without a notification id (idempotent).
-- Apply with: psql -v schema=notifications -f 012_dead_letter_per_message.sql
--
-- Until 011 a notification id had at most one row (a second dead letter of the id replaced it), and the
-- consumer gave an id-less JSON body id 0, so id-less dead letters replaced each other: the table missed
-- dead letters the queue held. Now every dead letter is its own row, named by letter_key, which the
-- dead-lettered message carries in its x-dead-key header (rows from before have none); the row also keeps
-- what identifies a message without an id: its AMQP message id, type, content type and its bytes.
-- notification_status (010, re-applied like every file) answers an id with several rows once, by its latest.
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
