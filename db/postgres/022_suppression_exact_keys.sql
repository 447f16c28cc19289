-- Suppression keys compared exactly (re-runnable; docs/suppression.md, "Keys").
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 022_suppression_exact_keys.sql
-- A key is compared as its channel defines it, and made so by whoever writes or looks it up (Shared/Data/SuppressionKeys):
-- an email address or domain is lower-cased; a push recipient ('fcm:<token>', 'apns:<token>') is kept exactly as the
-- provider gave it, since FCM and APNs tokens are case-sensitive (two tokens that differ only in case are two devices).
-- The column itself folds nothing: "C" compares and orders the bytes, whatever the database's collation, and the key's
-- index (which the consumers' batched lookups use) sorts by bytes. The change rebuilds the primary key's index once; the
-- guard makes a second run (an adoption) a no-op that keeps the constraint as it is.
-- Push entries written before this lower-cased their token: they no longer match a token with capitals, so such a device
-- gets one more send, and its UNREGISTERED answer records the token exactly.
SET search_path = :"schema";
DO $guard$
BEGIN
    IF EXISTS (SELECT FROM pg_attribute AS a JOIN pg_collation AS c ON c.oid = a.attcollation
               WHERE a.attrelid = 'suppression'::regclass AND a.attname = 'address' AND c.collname <> 'C') THEN
        ALTER TABLE suppression ALTER COLUMN address TYPE varchar(320) COLLATE "C";
    END IF;
END
$guard$;
RESET search_path;
COMMENT ON COLUMN :"schema".suppression.address IS
    'the key: a lower-case address or @domain (email), or fcm:<token> / apns:<token> exactly as the provider gave it (push)';
