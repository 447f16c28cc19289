-- A subscriber's broadcasts past its cap expire for it (re-runnable; issue 30, docs/live.md#broadcasts-to-a-topic): an app
-- that never acks has at most Live:MaxPendingPerSubscriber of its topics' broadcasts pending, the newest; the older ones
-- get a receipt marked expired when a gateway reads its broadcasts (on connect), and are not sent to it again.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 043_live_broadcast_expiry.sql
--   live_broadcast_receipt.expired_at  when a gateway expired the broadcast for the subscriber past its cap; NULL otherwise
ALTER TABLE :"schema".live_broadcast_receipt ADD COLUMN IF NOT EXISTS expired_at timestamptz NULL;
