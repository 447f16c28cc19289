-- Dead letters in the database, the attempts of a send, and the retention cleanup's state (idempotent).
-- Apply with: psql -v schema=notifications -f 009_dead_letters_and_retention.sql
--
-- dead_letter: one row per message the consumer moved to the dead-letter queue, written by the consumer just
-- before it publishes the dead letter (both delivery modes), so "what happened to notification N" needs no
-- look into the queue. Each dead letter is its own row (012; until then a second dead letter of an id replaced
-- the first); messages whose id could not be read (garbage bytes) get a row with notification_id NULL.
-- `scripts/admin dead-letters requeue` deletes the rows of what it requeued, `purge dead-letters` all rows.
CREATE TABLE IF NOT EXISTS :"schema".dead_letter (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    notification_id  bigint        NULL,
    reason           varchar(1000) NOT NULL,
    attempts         integer       NOT NULL,
    dead_lettered_at timestamptz   NOT NULL DEFAULT now()
);
-- (Its unique index on notification_id was created here until 012 replaced it: not created again, so that
-- applying every file in order never fails on an id with two rows.)
-- The retention cleanup deletes the oldest rows first.
CREATE INDEX IF NOT EXISTS dead_letter_dead_lettered_at ON :"schema".dead_letter (dead_lettered_at);

-- The attempt (1 = first delivery, each retry adds one) on which the SMTP server accepted the notification.
-- NULL for rows recorded before this column existed and for 'sending' marks.
ALTER TABLE :"schema".delivery_log ADD COLUMN IF NOT EXISTS attempts integer NULL;

-- The retention cleanup's fleet-wide lease (one row per job) and how far it has removed records:
-- max_deleted_id is the highest notification id whose delivery-log or dead-letter row it deleted, so the
-- status can tell "no record because retention removed it" from "in flight".
CREATE TABLE IF NOT EXISTS :"schema".retention (
    job            varchar(32)  PRIMARY KEY,
    lease_until    timestamptz  NOT NULL DEFAULT '-infinity',
    holder         varchar(200) NULL,
    last_run_at    timestamptz  NULL,
    max_deleted_id bigint       NULL
);
INSERT INTO :"schema".retention (job) VALUES ('cleanup') ON CONFLICT (job) DO NOTHING;
