-- Template variables (idempotent; the same column as PostgreSQL's 024; docs/templates.md, "Variables checked at
-- enqueue"): the top-level variable names a template version uses (its subject and bodies), as a JSON array of strings,
-- e.g. ["customer","order"]. Written by `admin templates put` (Shared/Templates/TemplateVariables), read by the client,
-- which refuses an enqueue whose template data lacks one of them. NULL for versions put before this migration: those
-- are not checked.
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 024_template_variables.sql
IF COL_LENGTH(N'[$(Schema)].[template]', N'variables') IS NULL
ALTER TABLE [$(Schema)].[template] ADD variables nvarchar(max) NULL;
GO
