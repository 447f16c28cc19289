-- Wake the producers' urgent lane (idempotent; docs/outbox.md, "The urgent wake"). An urgent row's insert sends
-- NOTIFY notifications_outbox_urgent with the schema as payload; the producers LISTEN on it and claim at once
-- instead of waiting for their next poll (the poll stays, as the safety net for a lost notification).
-- Apply with: psql -v schema=notifications -f 019_outbox_urgent_notify.sql
-- One notification per transaction, not per row: PostgreSQL folds identical channel + payload notifications of
-- one transaction into one, so a batch of 1,000 urgent rows wakes the producers once, at its commit.
-- FOR EACH ROW with a WHEN: the condition is checked without calling the function, so normal and bulk inserts
-- pay nothing (a statement-level trigger would run, and fill a transition table, for every insert).
-- The channel is fixed and the payload names the schema: a channel name of the schema's own would not fit
-- PostgreSQL's 63 characters for every schema a deployment may choose.
-- The cost to the business apps: a transaction that notified takes a database-wide lock at its commit, so
-- urgent inserts commit one at a time (measured in docs/outbox.md); normal and bulk ones are not affected.
-- To turn the wake off: ALTER TABLE <schema>.outbox DISABLE TRIGGER outbox_notify_urgent (the producers notice
-- at their next listen and poll again at Producer:UrgentMaxPollInterval).
CREATE OR REPLACE FUNCTION :"schema".outbox_notify_urgent() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('notifications_outbox_urgent', TG_TABLE_SCHEMA);
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS outbox_notify_urgent ON :"schema".outbox;
CREATE TRIGGER outbox_notify_urgent AFTER INSERT ON :"schema".outbox
    FOR EACH ROW WHEN (NEW.priority = 'urgent') EXECUTE FUNCTION :"schema".outbox_notify_urgent();
