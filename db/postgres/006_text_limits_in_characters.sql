-- Text limits count characters (code points): varchar(n) already does, so nothing changes here; SQL Server's
-- 005 makes its nvarchar columns count the same way. The unit is recorded on the columns.
-- Apply with: psql -v schema=notifications -f 006_text_limits_in_characters.sql   (idempotent)
COMMENT ON COLUMN :"schema".outbox.recipient IS 'at most 320 characters (code points), as the consumer counts them';
COMMENT ON COLUMN :"schema".outbox.subject IS 'at most 998 characters (code points), as the consumer counts them';
