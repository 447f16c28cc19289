-- Preferences on the live channel (re-runnable; issue 30, docs/preferences.md and docs/live.md): a subscriber may opt out
-- of a category on 'live' as on email and push, and a category may default 'live' off. Contact points stay email and push
-- (a subscriber's live channel is the subscriber itself).
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 035_live_preferences.sql
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_preference_channel'
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[preference]') AND definition NOT LIKE N'%live%')
ALTER TABLE [$(Schema)].[preference] DROP CONSTRAINT CK_preference_channel;
GO
IF OBJECT_ID(N'[$(Schema)].[CK_preference_channel]', N'C') IS NULL
ALTER TABLE [$(Schema)].[preference] WITH NOCHECK ADD CONSTRAINT CK_preference_channel CHECK (channel IN ('email', 'push', 'live'));
GO
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_category_default_channel'
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[category_default]') AND definition NOT LIKE N'%live%')
ALTER TABLE [$(Schema)].[category_default] DROP CONSTRAINT CK_category_default_channel;
GO
IF OBJECT_ID(N'[$(Schema)].[CK_category_default_channel]', N'C') IS NULL
ALTER TABLE [$(Schema)].[category_default] WITH NOCHECK ADD CONSTRAINT CK_category_default_channel CHECK (channel IN ('email', 'push', 'live'));
GO
-- Every row older than this names email or push: nothing to fail.
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_preference_channel' AND is_not_trusted = 1
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[preference]'))
ALTER TABLE [$(Schema)].[preference] WITH CHECK CHECK CONSTRAINT CK_preference_channel;
GO
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_category_default_channel' AND is_not_trusted = 1
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[category_default]'))
ALTER TABLE [$(Schema)].[category_default] WITH CHECK CHECK CONSTRAINT CK_category_default_channel;
GO
