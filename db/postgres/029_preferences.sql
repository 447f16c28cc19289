-- Preferences (re-runnable; docs/preferences.md, docs/outbox.md): a row may say what it is about, and the consumer does
-- not send it to a contact point whose subscriber opted out of that category on that channel.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 029_preferences.sql
-- The tables category, category_default and preference were made by 025 (its header says what each holds); this adds:
--   outbox.category             what the row is about ('security', 'orders', 'marketing'), as the client's
--                               NewNotification.Category; NULL: no category, never held back by a preference
--   outbox_category_shape       AudienceRules.CategoryName's shape (the category table's own check): 1-64 lower-case
--                               letters, digits, '.', '_', '-', starting with a letter or digit
--   delivery_log.status         gains 'opted_out': not sent, a subscriber of the address opted out (reason: who, how)
-- The consumer's lookup (contact_point (channel, address) -> preference's primary key (subscriber_id, category, channel),
-- category's and category_default's primary keys) is served by 025's indexes: no new index.
-- No foreign key from outbox.category to category: the outbox is the hottest table (every enqueue, every claim), and a
-- category that no operator has made yet is simply one nobody can have opted out of (preference refers to category).
-- A nullable column without a default is a catalog change (no rewrite); the check is added NOT VALID and then
-- validated, as 023's are, so no scan of the rows runs under the exclusive lock (every existing row holds NULL).
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS category varchar(64) COLLATE "C" NULL;
SET search_path = :"schema";
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_category_shape') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_category_shape CHECK (category ~ '^[a-z0-9][a-z0-9._-]{0,63}$') NOT VALID;
    END IF;
END
$guard$;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_category_shape;
RESET search_path;
COMMENT ON COLUMN :"schema".delivery_log.status IS 'sending (AtMostOnce mark before send) | sent | suppressed (not sent: on the suppression list) | opted_out (not sent: a subscriber of the address opted out of the row''s category on its channel; reason says who and how)';
