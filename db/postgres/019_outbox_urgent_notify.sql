-- The urgent wake, opt-in (idempotent; docs/urgent-wake.md). With the trigger below in place, an urgent row's insert
-- sends NOTIFY notifications_outbox_urgent with the schema as payload; the producers LISTEN on it and claim at once
-- instead of at their next poll (the poll stays, as the safety net for a lost notification).
-- Apply with: psql -v schema=notifications -f 019_outbox_urgent_notify.sql
-- This script creates only the trigger's function. The trigger is the opt-in (a re-run leaves it as it is):
--   CREATE TRIGGER outbox_notify_urgent AFTER INSERT ON notifications.outbox
--       FOR EACH ROW WHEN (NEW.priority = 'urgent') EXECUTE FUNCTION notifications.outbox_notify_urgent();
--   DROP TRIGGER outbox_notify_urgent ON notifications.outbox;   -- opt out
-- The producers follow within a minute (they look for the enabled trigger; Producer:ListenForUrgent).
-- Why not on by default (scripts/bench inserts, docs/urgent-wake.md): a transaction that notified takes a
-- database-wide lock from its commit until its end, WAL flush included, so urgent inserts commit one at a time
-- instead of sharing flushes (16 connections: 57.5 % fewer urgent inserts a second); and with the trigger present,
-- single-row normal inserts measured 3.9 % slower (its WHEN is evaluated, and the after-trigger queue set up, for
-- every insert statement). Not created disabled either: a disabled trigger's state is still checked for every inserted row.
-- One notification per transaction, not per row: PostgreSQL folds identical channel + payload notifications of one
-- transaction into one, so a batch of 1,000 urgent rows wakes the producers once, at its commit.
-- FOR EACH ROW with a WHEN: the condition is checked without calling the function; a statement-level trigger
-- would run the function, and fill a transition table, for every insert.
-- The channel is fixed and the payload names the schema: a channel named after the schema would not fit
-- PostgreSQL's 63 characters for every schema a deployment may choose.
CREATE OR REPLACE FUNCTION :"schema".outbox_notify_urgent() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('notifications_outbox_urgent', TG_TABLE_SCHEMA);
    RETURN NULL;
END
$$;
