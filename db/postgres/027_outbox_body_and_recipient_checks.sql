-- The outbox refuses, from any insert (plain SQL as well as the client), the two shapes 023 left to the consumer
-- (re-runnable; docs/outbox.md, "What the table refuses"; the client refuses the same at enqueue, Shared/Contract/EmailRules):
--   outbox_body_characters          a body over 1,048,576 characters (code points; EmailRules.MaxBodyLength), any channel
--                                   (a push text is far shorter, a webhook has none; a templated row has none yet);
--   outbox_html_body_characters     an HTML alternative (026's html_body) over the same 1,048,576 characters;
--   outbox_email_recipient_no_dots  an e-mail row's recipient with consecutive dots ('a..b@example.com',
--                                   'a@example..com'): no address the client or the consumer accepts has them.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 027_outbox_body_and_recipient_checks.sql
-- As 023: each check is added where it is missing, NOT VALID (a catalog change: no scan of the rows under the exclusive
-- lock), then VALIDATE scans the rows under a lock that lets inserts and claims go on. Rows already in the outbox that
-- fail a check (enqueued before it; the consumer dead-letters them with their reason) leave it unvalidated, with a
-- warning, instead of failing the migration: new rows are checked all the same, and a later VALIDATE (or this file's
-- statement by hand) makes it valid once they are gone.
SET search_path = :"schema";
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_body_characters') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_body_characters CHECK (char_length(body) <= 1048576) NOT VALID;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_html_body_characters') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_html_body_characters CHECK (char_length(html_body) <= 1048576) NOT VALID;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_email_recipient_no_dots') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_email_recipient_no_dots CHECK (channel <> 'email' OR strpos(recipient, '..') = 0) NOT VALID;
    END IF;
END
$guard$;
DO $validate$
DECLARE
    c text;
BEGIN
    FOREACH c IN ARRAY ARRAY['outbox_body_characters', 'outbox_html_body_characters', 'outbox_email_recipient_no_dots'] LOOP
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
