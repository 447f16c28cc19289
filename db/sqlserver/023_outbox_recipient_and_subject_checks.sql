-- The outbox refuses, from any insert (plain SQL as well as the client), what the consumer would only dead-letter later
-- (idempotent; the same two checks as PostgreSQL's 023; docs/outbox.md, "What the table refuses"):
--   CK_outbox_email_recipient_one_address  an e-mail row's recipient is one bare address: something, '@', a domain
--                                          (no '@' first or last); no space, control character (CR, LF, tab...), '<',
--                                          '>', '(', ')', ',' or ';' (so no display name, no list, no header injection);
--   CK_outbox_subject_one_line             a subject (an e-mail's subject, a push title, a webhook's event type) holds
--                                          no control character (U+0001-U+001F, U+007F-U+009F): one line.
-- The finer address syntax (consecutive dots, a bad domain) is the client's and the consumer's (Shared/Contract/EmailRules).
-- The patterns compare code points (a binary collation), whatever the column's collation.
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 023_outbox_recipient_and_subject_checks.sql
-- Each check is added WITH NOCHECK (no scan of the rows under the schema lock), then checked against the rows with
-- WITH CHECK CHECK CONSTRAINT. Rows already in the outbox that fail it (enqueued before it; the consumer dead-letters
-- them with their reason) leave it not trusted, with a warning, instead of failing the migration: new rows are
-- checked all the same, and the same statement by hand makes it trusted once they are gone.
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_email_recipient_one_address]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_email_recipient_one_address CHECK (
    channel <> 'email'
    OR (recipient LIKE N'%@%' AND recipient NOT LIKE N'@%' AND recipient NOT LIKE N'%@'
        AND PATINDEX(N'%[' + NCHAR(1) + N'-' + NCHAR(32) + NCHAR(127) + N'-' + NCHAR(160) + N'<>(),;]%',
                     recipient COLLATE Latin1_General_100_BIN2) = 0));
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_subject_one_line]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_subject_one_line CHECK (
    PATINDEX(N'%[' + NCHAR(1) + N'-' + NCHAR(31) + NCHAR(127) + N'-' + NCHAR(159) + N']%', subject COLLATE Latin1_General_100_BIN2) = 0);
GO
DECLARE @check sysname, @validate nvarchar(400);
DECLARE checks CURSOR LOCAL FAST_FORWARD FOR
    SELECT name FROM (VALUES (N'CK_outbox_email_recipient_one_address'), (N'CK_outbox_subject_one_line')) AS c (name);
OPEN checks;
FETCH NEXT FROM checks INTO @check;
WHILE @@FETCH_STATUS = 0
BEGIN
    SET @validate = N'ALTER TABLE [$(Schema)].[outbox] WITH CHECK CHECK CONSTRAINT ' + QUOTENAME(@check);
    BEGIN TRY
        EXEC sys.sp_executesql @validate;
    END TRY
    BEGIN CATCH
        IF ERROR_NUMBER() <> 547 THROW;
        PRINT N'warning: outbox: ' + @check + N' is not trusted: rows enqueued before it fail it (the consumer dead-letters them); new rows are checked';
    END CATCH;
    FETCH NEXT FROM checks INTO @check;
END;
CLOSE checks;
DEALLOCATE checks;
GO
