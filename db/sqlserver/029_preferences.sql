-- Preferences (idempotent; the same column and check as PostgreSQL's 029, read its header; docs/preferences.md,
-- docs/outbox.md): a row may say what it is about, and the consumer does not send it to a contact point whose subscriber
-- opted out of that category on that channel (delivery_log.status 'opted_out', with its reason).
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 029_preferences.sql
--   outbox.category             what the row is about, as the client's NewNotification.Category; NULL: no category.
--                               Compared as bytes (Latin1_General_100_BIN2), as category.name (025) is.
--   CK_outbox_category_shape    AudienceRules.CategoryName's shape (025's CK_category_name): 1-64 lower-case letters,
--                               digits, '.', '_', '-', starting with a letter or digit (the length is the column's).
-- No foreign key to category: the outbox is the hottest table, and a category nobody made yet is one nobody opted out of.
-- A nullable column: a metadata-only change. The check is added WITH NOCHECK (no scan under the schema lock), then made
-- trusted with WITH CHECK CHECK CONSTRAINT, as 023's are; every row older than the column holds NULL, which passes.
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'category') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD category varchar(64) COLLATE Latin1_General_100_BIN2 NULL;
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_category_shape]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_category_shape CHECK (
    category LIKE '[a-z0-9]%' COLLATE Latin1_General_BIN2 AND category NOT LIKE '%[^a-z0-9._-]%' COLLATE Latin1_General_BIN2);
GO
IF EXISTS (SELECT 1 FROM sys.check_constraints
           WHERE name = N'CK_outbox_category_shape' AND parent_object_id = OBJECT_ID(N'[$(Schema)].[outbox]') AND is_not_trusted = 1)
ALTER TABLE [$(Schema)].[outbox] WITH CHECK CHECK CONSTRAINT CK_outbox_category_shape;
GO
