-- Templated notifications to an audience (re-runnable; docs/fan-out.md): a subscriber or a topic may be sent a template,
-- rendered by the consumer for each delivery in the subscriber's own locale (or the row's, when it names one).
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 031_audience_templates.sql
--   CK_outbox_prepared_or_templated   an audience row may be templated as an email row is (a name and a JSON object, no
--                                     subject or body); a template renders email only, so its channels are exactly 'email'
--   audience_delivery.locale          the subscriber's locale when the page was written: what a templated delivery renders
--                                     in unless its row named one (a page published again uses the same)
IF COL_LENGTH(N'[$(Schema)].[audience_delivery]', N'locale') IS NULL
ALTER TABLE [$(Schema)].[audience_delivery] ADD locale nvarchar(35) NULL;
GO
-- Redefined once, where the check does not name 'audience' yet.
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_outbox_prepared_or_templated'
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[outbox]') AND definition NOT LIKE N'%audience%')
ALTER TABLE [$(Schema)].[outbox] DROP CONSTRAINT CK_outbox_prepared_or_templated;
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_prepared_or_templated]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD CONSTRAINT CK_outbox_prepared_or_templated CHECK (
    (channel = 'email' AND template_name IS NULL AND template_data IS NULL AND subject IS NOT NULL AND body IS NOT NULL)
    OR (channel = 'email' AND template_name IS NOT NULL AND template_data IS NOT NULL AND subject IS NULL AND body IS NULL)
    OR (channel = 'audience' AND template_name IS NOT NULL AND template_data IS NOT NULL AND subject IS NULL AND body IS NULL
        AND channels IS NOT NULL AND channels = 'email')
    OR (channel <> 'email' AND template_name IS NULL AND template_data IS NULL));
GO
