-- The live channel (re-runnable; issue 30, docs/live.md): a row may name channel 'live', to an app's own connection.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 033_live_channel.sql
--   outbox.channel 'live'          recipient is the subscriber (the app's own id, as a token's sub); subject, body and
--                                  data (a JSON object) as a push row's, at least one of them
--   live_pending.at_most_once      the consumer's delivery mode when it wrote the row: the gateway sends such a row at
--                                  most once (it marks sent_at first, and never sends a marked row again); otherwise
--                                  until the client acks it
--   live_pending.sent_at           when a gateway first sent the row (at most once: the mark)
SET search_path = :"schema";
ALTER TABLE live_pending ADD COLUMN IF NOT EXISTS at_most_once boolean NOT NULL DEFAULT false;
ALTER TABLE live_pending ADD COLUMN IF NOT EXISTS sent_at timestamptz NULL;
-- The retention cleanup and the cap per subscriber find expired rows by their expiry.
CREATE INDEX IF NOT EXISTS live_pending_expires ON live_pending (expires_at);
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_channel_known'
                   AND pg_get_constraintdef(oid) LIKE '%live%') THEN
        ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_channel_known;
        ALTER TABLE outbox ADD CONSTRAINT outbox_channel_known CHECK (channel IN ('email', 'webhook', 'push', 'audience', 'live')) NOT VALID;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_live_recipient') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_live_recipient CHECK (
            channel <> 'live' OR recipient ~ '^[A-Za-z0-9][A-Za-z0-9._:@+=-]{0,127}$') NOT VALID;
    END IF;
END
$guard$;
-- Every row older than this holds a channel the old check knew: nothing to fail.
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_channel_known;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_live_recipient;
RESET search_path;
