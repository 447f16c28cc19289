-- Text limits count characters (code points), as PostgreSQL's varchar(n) does and the consumer's validator
-- does: nvarchar(n) counts UTF-16 units, so nvarchar(998) refused a subject of 998 emoji that PostgreSQL and
-- the consumer accept. The columns widen to two units a character and a check counts the characters: LEN
-- under a supplementary-character (_SC) collation counts a surrogate pair as one; the appended '.' keeps
-- trailing spaces, which LEN would not count. Apply with: sqlcmd -v Schema=notifications -i 006_text_limits_in_characters.sql
-- (idempotent; widening an nvarchar column only changes metadata).
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'subject') < 3992
ALTER TABLE [$(Schema)].[outbox] ALTER COLUMN subject nvarchar(1996) NOT NULL;
GO
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'recipient') < 1280
ALTER TABLE [$(Schema)].[outbox] ALTER COLUMN recipient nvarchar(640) NOT NULL;
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_subject_characters]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD CONSTRAINT CK_outbox_subject_characters
    CHECK (LEN((subject + N'.') COLLATE Latin1_General_100_CI_AS_SC) - 1 <= 998);
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_recipient_characters]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD CONSTRAINT CK_outbox_recipient_characters
    CHECK (LEN((recipient + N'.') COLLATE Latin1_General_100_CI_AS_SC) - 1 <= 320);
GO
-- The rejected table keeps outbox rows as they were: the same widths.
IF COL_LENGTH(N'[$(Schema)].[rejected]', N'subject') < 3992
ALTER TABLE [$(Schema)].[rejected] ALTER COLUMN subject nvarchar(1996) NULL;
GO
IF COL_LENGTH(N'[$(Schema)].[rejected]', N'recipient') < 1280
ALTER TABLE [$(Schema)].[rejected] ALTER COLUMN recipient nvarchar(640) NULL;
GO
