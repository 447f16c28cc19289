-- The urgent wake's trigger function (repeatable: re-applied by `migrate` whenever this file changes; docs/database.md).
-- Opting in, the trigger itself, and why it is not on by default: 019_outbox_urgent_notify.sql and docs/urgent-wake.md.
CREATE OR REPLACE FUNCTION :"schema".outbox_notify_urgent() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('notifications_outbox_urgent', TG_TABLE_SCHEMA);
    RETURN NULL;
END
$$;

-- Functions are executable by PUBLIC when created: not this one (a trigger fires it whoever inserts).
REVOKE ALL ON FUNCTION :"schema".outbox_notify_urgent() FROM PUBLIC;
