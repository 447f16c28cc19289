-- Templated notifications to an audience (re-runnable; docs/fan-out.md): a subscriber or a topic may be sent a template,
-- rendered by the consumer for each delivery in the subscriber's own locale (or the row's, when it names one).
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 031_audience_templates.sql
--   outbox_prepared_or_templated   an audience row may be templated as an email row is (a name and a JSON object, no
--                                  subject or body); a template renders email only, so its channels are exactly 'email'
--   audience_delivery.locale       the subscriber's locale when the page was written: what a templated delivery renders
--                                  in unless its row named one (a page published again uses the same)
-- Redefined once, where the check does not name 'audience' yet. NOT VALID, then VALIDATE, as in 017.
SET search_path = :"schema";
ALTER TABLE audience_delivery ADD COLUMN IF NOT EXISTS locale varchar(35) NULL;
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_prepared_or_templated'
                   AND pg_get_constraintdef(oid) LIKE '%audience%') THEN
        ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_prepared_or_templated;
        ALTER TABLE outbox ADD CONSTRAINT outbox_prepared_or_templated CHECK (
            (channel = 'email' AND template_name IS NULL AND template_data IS NULL AND subject IS NOT NULL AND body IS NOT NULL)
            OR (channel = 'email' AND template_name IS NOT NULL AND template_data IS NOT NULL AND subject IS NULL AND body IS NULL)
            OR (channel = 'audience' AND template_name IS NOT NULL AND template_data IS NOT NULL AND subject IS NULL AND body IS NULL
                AND channels IS NOT NULL AND channels = 'email')
            OR (channel <> 'email' AND template_name IS NULL AND template_data IS NULL)) NOT VALID;
    END IF;
END
$guard$;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_prepared_or_templated;
RESET search_path;
