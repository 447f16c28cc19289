-- An unsubscribe link of a mail with a category (docs/preferences.md, "By the link"; repeatable: re-applied by `migrate`
-- whenever this file changes). Every subscriber having the address as a contact point on the channel opts out of the
-- category there: their preference row is written, or turned, off. Nothing for a critical or unknown category. Answers
-- one row, how many subscribers it covered: 0 when nobody holds the address (the unsubscribe process then adds the
-- bulk suppression entry, as for a mail without a category).
--   EXEC [notifications].[opt_out_by_link] @channel = 'email', @address = N'ana@example.com', @category = 'marketing';
-- The unsubscribe process faces the internet and may read no registry table (a leaked login would list every
-- subscriber's address); it may execute this procedure, which reads only the rows of the address it is given (ownership
-- chaining: the procedure and the tables have one owner). CREATE OR ALTER keeps the grants of repeatable/90_roles.sql.
CREATE OR ALTER PROCEDURE [$(Schema)].[opt_out_by_link]
    @channel varchar(8), @address nvarchar(320), @category varchar(64)
AS
BEGIN
    SET NOCOUNT ON;
    MERGE [$(Schema)].[preference] WITH (HOLDLOCK) AS p
    USING (
        SELECT DISTINCT cp.subscriber_id, c.name AS category, cp.channel
        FROM [$(Schema)].[contact_point] AS cp
        JOIN [$(Schema)].[category] AS c ON c.name = @category AND c.critical = 0
        WHERE cp.channel = @channel AND cp.address = @address) AS o
    ON p.subscriber_id = o.subscriber_id AND p.category = o.category AND p.channel = o.channel
    WHEN MATCHED THEN UPDATE SET enabled = 0, updated_at = SYSUTCDATETIME()
    WHEN NOT MATCHED THEN INSERT (subscriber_id, category, channel, enabled) VALUES (o.subscriber_id, o.category, o.channel, 0);
    SELECT @@ROWCOUNT AS covered;
END
GO
