-- A row's own From display name (idempotent; the same column and checks as PostgreSQL's 028; docs/outbox.md,
-- docs/messages.md): the consumer sends it with Smtp:From's address, the one DKIM signs and SPF authorizes, so a row
-- varies the name only; NULL keeps Smtp:From's name.
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 028_outbox_from_name.sql
--   outbox.from_name                   the display name, as the client's NewNotification.FromName (Shared/Contract/FromNameRules)
--   CK_outbox_from_name_characters     1 to 100 characters (code points, counted as 006 counts them), not blank
--   CK_outbox_from_name_one_line       no control character (U+0001-U+001F, U+007F-U+009F): one line, no header injection
-- nvarchar(200): two UTF-16 units a character, the check counts the characters. A nullable column: a metadata-only change.
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'from_name') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD from_name nvarchar(200) NULL
    CONSTRAINT CK_outbox_from_name_characters CHECK (
        LEN((from_name + N'.') COLLATE Latin1_General_100_CI_AS_SC) - 1 <= 100 AND LEN(from_name) > 0),
    CONSTRAINT CK_outbox_from_name_one_line CHECK (
        PATINDEX(N'%[' + NCHAR(1) + N'-' + NCHAR(31) + NCHAR(127) + N'-' + NCHAR(159) + N']%', from_name COLLATE Latin1_General_100_BIN2) = 0);
GO
