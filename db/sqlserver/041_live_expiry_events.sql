-- Live expiry events (idempotent; docs/outcome-events.md, docs/live.md).
-- Apply with: sqlcmd -v Schema=notifications -i 041_live_expiry_events.sql
-- A live notification that expired unacked (its expires_at passed, or the consumer expired it past a subscriber's cap) is a
-- notification.expired event. A gateway's sweep finds such rows and marks each once (expiry_reported_at), writing its
-- events in the same transaction; the sweep reads the IX_live_pending_expires index from where its last one ended, so no
-- index of its own is needed (none written per live row).
IF COL_LENGTH(N'[$(Schema)].[live_pending]', N'expiry_reported_at') IS NULL
ALTER TABLE [$(Schema)].[live_pending] ADD expiry_reported_at datetimeoffset(3) NULL;
GO
