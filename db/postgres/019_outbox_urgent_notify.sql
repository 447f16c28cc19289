-- The urgent wake, opt-in (idempotent; docs/outbox.md, "The urgent wake"). Once enabled, an urgent row's insert
-- sends NOTIFY notifications_outbox_urgent with the schema as payload; the producers LISTEN on it and claim at once
-- instead of at their next poll (the poll stays, as the safety net for a lost notification).
-- Apply with: psql -v schema=notifications -f 019_outbox_urgent_notify.sql
-- Opt in:  ALTER TABLE notifications.outbox ENABLE TRIGGER outbox_notify_urgent;
-- Opt out: ALTER TABLE notifications.outbox DISABLE TRIGGER outbox_notify_urgent;
-- The producers follow within a minute (they look at the trigger's state; Producer:ListenForUrgent).
-- Created DISABLED, and a re-run leaves its state alone: a transaction that notified takes a database-wide lock
-- from its commit until its end, WAL flush included, so urgent inserts commit one at a time instead of sharing
-- flushes: 16 connections inserting urgent rows lost most of their rate with it on (docs/outbox.md, measured with
-- scripts/bench inserts). Worth it where urgent rows are rare and their latency matters; normal and bulk inserts
-- are not affected either way.
-- One notification per transaction, not per row: PostgreSQL folds identical channel + payload notifications of one
-- transaction into one, so a batch of 1,000 urgent rows wakes the producers once, at its commit.
-- FOR EACH ROW with a WHEN: the condition is checked without calling the function, so normal and bulk inserts pay
-- nothing (a statement-level trigger would run, and fill a transition table, for every insert).
-- The channel is fixed and the payload names the schema: a channel named after the schema would not fit
-- PostgreSQL's 63 characters for every schema a deployment may choose.
CREATE OR REPLACE FUNCTION :"schema".outbox_notify_urgent() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('notifications_outbox_urgent', TG_TABLE_SCHEMA);
    RETURN NULL;
END
$$;
-- psql does not substitute variables inside the DO block's body: the schema reaches it through a setting.
SET notifications.migration_schema = :'schema';
DO $$
DECLARE
    s text := current_setting('notifications.migration_schema');
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'outbox_notify_urgent' AND tgrelid = format('%I.outbox', s)::regclass) THEN
        EXECUTE format('CREATE TRIGGER outbox_notify_urgent AFTER INSERT ON %I.outbox FOR EACH ROW '
                       'WHEN (NEW.priority = ''urgent'') EXECUTE FUNCTION %I.outbox_notify_urgent()', s, s);
        EXECUTE format('ALTER TABLE %I.outbox DISABLE TRIGGER outbox_notify_urgent', s);
    END IF;
END
$$;
RESET notifications.migration_schema;
