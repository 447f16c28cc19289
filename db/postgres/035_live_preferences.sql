-- Preferences on the live channel (re-runnable; issue 30, docs/preferences.md and docs/live.md): a subscriber may opt out
-- of a category on 'live' as on email and push, and a category may default 'live' off. Contact points stay email and push
-- (a subscriber's live channel is the subscriber itself).
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 035_live_preferences.sql
SET search_path = :"schema";
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'preference'::regclass AND conname = 'preference_channel_known'
                   AND pg_get_constraintdef(oid) LIKE '%live%') THEN
        ALTER TABLE preference DROP CONSTRAINT IF EXISTS preference_channel_known;
        ALTER TABLE preference ADD CONSTRAINT preference_channel_known CHECK (channel IN ('email', 'push', 'live')) NOT VALID;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'category_default'::regclass AND conname = 'category_default_channel_known'
                   AND pg_get_constraintdef(oid) LIKE '%live%') THEN
        ALTER TABLE category_default DROP CONSTRAINT IF EXISTS category_default_channel_known;
        ALTER TABLE category_default ADD CONSTRAINT category_default_channel_known CHECK (channel IN ('email', 'push', 'live')) NOT VALID;
    END IF;
END
$guard$;
-- Every row older than this names email or push: nothing to fail.
ALTER TABLE preference VALIDATE CONSTRAINT preference_channel_known;
ALTER TABLE category_default VALIDATE CONSTRAINT category_default_channel_known;
RESET search_path;
