-- The outbox refuses, from any insert (plain SQL as well as the client), what the consumer would only dead-letter later
-- (re-runnable; docs/outbox.md, "What the table refuses"):
--   outbox_email_recipient_one_address  an e-mail row's recipient is one bare address: something, '@', a domain; no
--                                       white space, control character (CR, LF, tab...), '<', '>', '(', ')', ',' or ';'
--                                       (so no display name, no list, no header injection);
--   outbox_subject_one_line             a subject (an e-mail's subject, a push title, a webhook's event type) holds no
--                                       control character: one line.
-- The finer address syntax (consecutive dots, a bad domain) is the client's and the consumer's (Shared/Contract/EmailRules).
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 023_outbox_recipient_and_subject_checks.sql
-- Each check is added where it is missing, NOT VALID (a catalog change: no scan of the rows under the exclusive lock),
-- then VALIDATE scans the rows under a lock that lets inserts and claims go on. Rows already in the outbox that fail a
-- check (enqueued before it; the consumer dead-letters them with their reason) leave it unvalidated, with a warning,
-- instead of failing the migration: new rows are checked all the same, and a later VALIDATE (or this file's
-- statement by hand) makes it valid once they are gone.
SET search_path = :"schema";
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_email_recipient_one_address') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_email_recipient_one_address CHECK (
            channel <> 'email' OR recipient ~ '^[^[:space:][:cntrl:]<>(),;]+@[^[:space:][:cntrl:]<>(),;@]+$') NOT VALID;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_subject_one_line') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_subject_one_line CHECK (subject !~ '[[:cntrl:]]') NOT VALID;
    END IF;
END
$guard$;
DO $validate$
DECLARE
    c text;
BEGIN
    FOREACH c IN ARRAY ARRAY['outbox_email_recipient_one_address', 'outbox_subject_one_line'] LOOP
        BEGIN
            EXECUTE format('ALTER TABLE outbox VALIDATE CONSTRAINT %I', c);
        EXCEPTION WHEN check_violation THEN
            RAISE WARNING 'outbox: % is not validated: rows enqueued before it fail it (the consumer dead-letters them); new rows are checked', c
                USING HINT = format('once they are gone: ALTER TABLE %I.outbox VALIDATE CONSTRAINT %I', current_schema(), c);
        END;
    END LOOP;
END
$validate$;
RESET search_path;
