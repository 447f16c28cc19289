-- Channels (idempotent): a row names how it leaves, email (the default), webhook or push (docs/channels.md).
-- Apply with: psql -v schema=notifications -f 017_channels.sql
--   channel: 'email' | 'webhook' | 'push'. Every existing row and every insert that leaves it out stays email.
--   data:    a JSON value. A webhook's payload data ({"type": subject, "timestamp": ..., "data": data} is what the
--            endpoint receives); a push notification's custom data (a JSON object of string values).
-- What each channel reads from the other columns:
--   email    recipient = address, subject, body, ... as before
--   webhook  recipient = the endpoint's name (scripts/admin webhooks add), subject = the event type, data = payload data
--   push     recipient = 'fcm:<registration token>' or 'apns:<device token>', subject = title, body = text, data
-- A constant default: PostgreSQL 11+ adds the column without rewriting the table.
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS channel varchar(8) NOT NULL DEFAULT 'email'
    CONSTRAINT outbox_channel_known CHECK (channel IN ('email', 'webhook', 'push'));
-- text, not jsonb: the consumer sends the text as written (jsonb would reorder keys). Not JSON fails the cast: an error.
-- (A NULL data makes the check NULL, which passes; "IS NOT NULL" would have refused every row without data.)
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS data text NULL;
-- 014's "prepared or templated" holds for email; a webhook or push row has no template, and its subject and body
-- are the channel's (a webhook has no body, a push row may carry data alone): the channel's rules check them.
-- A push token the provider says is gone for good (FCM UNREGISTERED, APNs 410 Unregistered / 400 BadDeviceToken) is
-- suppressed with the reason 'unregistered'; the app reads them (scripts/admin suppression list --reason unregistered).
-- Each check is added where it is missing and redefined once, where its definition is still 014's or 015's (it names
-- no channel, no 'unregistered'): a run again changes nothing. NOT VALID, then VALIDATE: the redefinition is a catalog
-- change under the exclusive lock (drop and add in one transaction, so no row goes in unchecked between), and the
-- scan of the rows takes a lock that lets inserts and claims go on.
SET search_path = :"schema";
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_data_json') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_data_json CHECK (json_typeof(data::json) <> '') NOT VALID;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_prepared_or_templated'
                   AND pg_get_constraintdef(oid) LIKE '%channel%') THEN
        ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_prepared_or_templated;
        ALTER TABLE outbox ADD CONSTRAINT outbox_prepared_or_templated CHECK (
            (channel = 'email' AND template_name IS NULL AND template_data IS NULL AND subject IS NOT NULL AND body IS NOT NULL)
            OR (channel = 'email' AND template_name IS NOT NULL AND template_data IS NOT NULL AND subject IS NULL AND body IS NULL)
            OR (channel <> 'email' AND template_name IS NULL AND template_data IS NULL)) NOT VALID;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'suppression'::regclass AND conname = 'suppression_reason_known'
                   AND pg_get_constraintdef(oid) LIKE '%unregistered%') THEN
        ALTER TABLE suppression DROP CONSTRAINT IF EXISTS suppression_reason_known;
        ALTER TABLE suppression ADD CONSTRAINT suppression_reason_known
            CHECK (reason IN ('hard_bounce', 'complaint', 'unsubscribed', 'manual', 'unregistered')) NOT VALID;
    END IF;
END
$guard$;
RESET search_path;
ALTER TABLE :"schema".outbox VALIDATE CONSTRAINT outbox_data_json;
ALTER TABLE :"schema".outbox VALIDATE CONSTRAINT outbox_prepared_or_templated;
ALTER TABLE :"schema".suppression VALIDATE CONSTRAINT suppression_reason_known;
-- notification_status speaks of the receiving server, whichever channel: repeatable/10_notification_status.sql.
