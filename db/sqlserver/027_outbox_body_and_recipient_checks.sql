-- The outbox refuses, from any insert (plain SQL as well as the client), the two shapes 023 left to the consumer
-- (idempotent; the same three checks as PostgreSQL's 027; docs/outbox.md, "What the table refuses"; the client refuses
-- the same at enqueue, Shared/Contract/EmailRules):
--   CK_outbox_body_characters          a body over 1,048,576 characters (code points; EmailRules.MaxBodyLength), any
--                                      channel (a push text is far shorter, a webhook has none; a templated row has none yet);
--   CK_outbox_html_body_characters     an HTML alternative (026's html_body) over the same 1,048,576 characters;
--   CK_outbox_email_recipient_no_dots  an e-mail row's recipient with consecutive dots ('a..b@example.com',
--                                      'a@example..com'): no address the client or the consumer accepts has them.
-- Characters as 006 counts them: LEN under a supplementary-character (_SC) collation counts a surrogate pair as one, the
-- appended '.' keeps trailing spaces; at most 2,097,152 bytes of nvarchar cannot exceed the limit, so LEN runs only on
-- a longer text.
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 027_outbox_body_and_recipient_checks.sql
-- As 023: each check is added WITH NOCHECK (no scan of the rows under the schema lock), then checked against the rows
-- with WITH CHECK CHECK CONSTRAINT. Rows already in the outbox that fail it (enqueued before it; the consumer
-- dead-letters them with their reason) leave it not trusted, with a warning, instead of failing the migration: new rows
-- are checked all the same, and the same statement by hand makes it trusted once they are gone.
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_body_characters]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_body_characters CHECK (
    DATALENGTH(body) <= 2097152 OR LEN((body + N'.') COLLATE Latin1_General_100_CI_AS_SC) - 1 <= 1048576);
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_html_body_characters]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_html_body_characters CHECK (
    DATALENGTH(html_body) <= 2097152 OR LEN((html_body + N'.') COLLATE Latin1_General_100_CI_AS_SC) - 1 <= 1048576);
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_email_recipient_no_dots]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_email_recipient_no_dots CHECK (
    channel <> 'email' OR CHARINDEX(N'..', recipient COLLATE Latin1_General_100_BIN2) = 0);
GO
DECLARE @check sysname, @validate nvarchar(400);
DECLARE checks CURSOR LOCAL FAST_FORWARD FOR
    SELECT name FROM (VALUES (N'CK_outbox_body_characters'), (N'CK_outbox_html_body_characters'), (N'CK_outbox_email_recipient_no_dots')) AS c (name);
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
