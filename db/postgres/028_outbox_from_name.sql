-- A row's own From display name (re-runnable; docs/outbox.md, docs/messages.md): the consumer sends it with Smtp:From's
-- address, the one DKIM signs and SPF authorizes, so a row varies the name only; NULL keeps Smtp:From's name.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 028_outbox_from_name.sql
--   outbox.from_name                 the display name, as the client's NewNotification.FromName (Shared/Contract/FromNameRules)
--   outbox_from_name_characters      1 to 100 characters (code points), not blank
--   outbox_from_name_one_line        no control character (CR, LF, tab...): one line, no header injection
-- A nullable column without a default is a catalog change (no rewrite); the checks are added NOT VALID and then
-- validated, as 023's are, so no scan of the rows runs under the exclusive lock (every existing row holds NULL).
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS from_name text NULL;
SET search_path = :"schema";
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_from_name_characters') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_from_name_characters CHECK (
            char_length(from_name) <= 100 AND char_length(btrim(from_name)) > 0) NOT VALID;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_from_name_one_line') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_from_name_one_line CHECK (from_name !~ '[[:cntrl:]]') NOT VALID;
    END IF;
END
$guard$;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_from_name_characters;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_from_name_one_line;
RESET search_path;
