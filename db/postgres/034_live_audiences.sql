-- Live deliveries of audience rows (re-runnable; issue 30, docs/live.md and docs/fan-out.md).
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 034_live_audiences.sql
--   outbox.channels    an audience row may name 'live' (one delivery a subscriber, to its running apps, the address its
--                      own id) in any set with 'email' and 'push' ('email,push,live' in that order), or 'live>push': live,
--                      then each push device only where no app acked the live delivery in time (alone or after 'email,')
SET search_path = :"schema";
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_audience_channels'
                   AND pg_get_constraintdef(oid) LIKE '%live%') THEN
        ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_audience_channels;
        ALTER TABLE outbox ADD CONSTRAINT outbox_audience_channels CHECK (
            (channel = 'audience' AND channels IS NOT NULL AND channels IN (
                'email', 'push', 'email,push', 'live', 'email,live', 'push,live', 'email,push,live', 'live>push', 'email,live>push'))
            OR (channel <> 'audience' AND channels IS NULL)) NOT VALID;
    END IF;
END
$guard$;
-- Every row older than this holds a set the old check knew: nothing to fail.
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_audience_channels;
RESET search_path;
