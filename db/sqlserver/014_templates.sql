-- Templates (idempotent): a notification may name a template instead of carrying a prepared subject and body; the
-- consumer renders it (Liquid, Fluid) at send time from the row's template_data. See docs/templates.md.
-- Apply with: sqlcmd -v Schema=notifications -i 014_templates.sql
-- Every `admin templates put` adds a version: (name, locale, version) is unique and rows are never updated, so a
-- version once rendered stays what it was; the consumer renders the highest version of each locale.
-- nvarchar: limits count characters as in PostgreSQL (see 006).
IF OBJECT_ID(N'[$(Schema)].[template]', N'U') IS NULL
CREATE TABLE [$(Schema)].[template] (
    id          bigint IDENTITY(1,1) NOT NULL CONSTRAINT PK_template PRIMARY KEY,
    name        nvarchar(200)     NOT NULL,
    locale      nvarchar(35)      NOT NULL,
    version     int               NOT NULL,
    subject     nvarchar(1996)    NOT NULL,
    text_body   nvarchar(max)     NULL,
    html_body   nvarchar(max)     NULL,
    created_at  datetimeoffset(3) NOT NULL CONSTRAINT DF_template_created_at DEFAULT (SYSUTCDATETIME()),
    updated_at  datetimeoffset(3) NOT NULL CONSTRAINT DF_template_updated_at DEFAULT (SYSUTCDATETIME()),
    CONSTRAINT UQ_template_name_locale_version UNIQUE (name, locale, version),
    CONSTRAINT CK_template_version_positive CHECK (version > 0),
    CONSTRAINT CK_template_has_body CHECK (text_body IS NOT NULL OR html_body IS NOT NULL)
);
GO
-- A templated row names its template, its data (a JSON object, as text) and optionally a locale (BCP 47, e.g. pt-BR).
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'template_name') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD template_name nvarchar(200) NULL, template_data nvarchar(max) NULL, locale nvarchar(35) NULL;
GO
-- Subject and body become nullable; the character-count check on subject depends on the column, so it is dropped
-- around the change and put back (a NULL subject passes it).
IF COLUMNPROPERTY(OBJECT_ID(N'[$(Schema)].[outbox]'), N'subject', 'AllowsNull') = 0
BEGIN
    IF OBJECT_ID(N'[$(Schema)].[CK_outbox_subject_characters]', N'C') IS NOT NULL
        ALTER TABLE [$(Schema)].[outbox] DROP CONSTRAINT CK_outbox_subject_characters;
    ALTER TABLE [$(Schema)].[outbox] ALTER COLUMN subject nvarchar(1996) NULL;
    ALTER TABLE [$(Schema)].[outbox] ALTER COLUMN body nvarchar(max) NULL;
END;
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_subject_characters]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD CONSTRAINT CK_outbox_subject_characters
    CHECK (LEN((subject + N'.') COLLATE Latin1_General_100_CI_AS_SC) - 1 <= 998);
GO
-- A row is either prepared (subject and body) or templated (template name and data, no subject or body).
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_prepared_or_templated]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD CONSTRAINT CK_outbox_prepared_or_templated CHECK (
    (template_name IS NULL AND template_data IS NULL AND subject IS NOT NULL AND body IS NOT NULL)
    OR (template_name IS NOT NULL AND template_data IS NOT NULL AND subject IS NULL AND body IS NULL));
GO
-- The data is a JSON object: ISJSON refuses text that is not JSON, JSON_QUERY (an object or array, NULL for a
-- scalar) refuses scalars, and the first character after JSON's white space tells an object from an array. CASE,
-- not AND: SQL Server does not promise to evaluate AND's operands in order, and JSON_QUERY raises an error on text
-- that is not JSON, where the check should simply be false.
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_template_data_object]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD CONSTRAINT CK_outbox_template_data_object CHECK (
    template_data IS NULL
    OR CASE
        WHEN ISJSON(template_data) <> 1 THEN 0
        WHEN JSON_QUERY(template_data) IS NULL THEN 0
        WHEN LEFT(LTRIM(REPLACE(REPLACE(REPLACE(template_data, NCHAR(9), N' '), NCHAR(10), N' '), NCHAR(13), N' ')), 1) = N'{' THEN 1
        ELSE 0
       END = 1);
GO
