-- Live deliveries of audience rows (re-runnable; issue 30, docs/live.md and docs/fan-out.md).
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 034_live_audiences.sql
--   outbox.channels    an audience row may name 'live' (one delivery a subscriber, to its running apps, the address its
--                      own id) in any set with 'email' and 'push' ('email,push,live' in that order), or 'live>push': live,
--                      then each push device only where no app acked the live delivery in time (alone or after 'email,')
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_outbox_audience_channels'
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[outbox]') AND definition NOT LIKE N'%live%')
ALTER TABLE [$(Schema)].[outbox] DROP CONSTRAINT CK_outbox_audience_channels;
GO
IF OBJECT_ID(N'[$(Schema)].[CK_outbox_audience_channels]', N'C') IS NULL
ALTER TABLE [$(Schema)].[outbox] WITH NOCHECK ADD CONSTRAINT CK_outbox_audience_channels CHECK (
    (channel = 'audience' AND channels IS NOT NULL AND channels IN (
        'email', 'push', 'email,push', 'live', 'email,live', 'push,live', 'email,push,live', 'live>push', 'email,live>push'))
    OR (channel <> 'audience' AND channels IS NULL));
GO
-- Every row older than this holds a set the old check knew: nothing to fail.
IF EXISTS (SELECT 1 FROM sys.check_constraints WHERE name = N'CK_outbox_audience_channels'
           AND parent_object_id = OBJECT_ID(N'[$(Schema)].[outbox]') AND is_not_trusted = 1)
ALTER TABLE [$(Schema)].[outbox] WITH CHECK CHECK CONSTRAINT CK_outbox_audience_channels;
GO
