-- Optional per-row priority lane and earliest send time (idempotent).
--   priority:   'urgent' | 'normal' | 'bulk' (default 'normal'). Urgent rows are claimed first and travel
--               in their own lane, so a bulk backlog neither delays nor starves them.
--   not_before: NULL = send now; otherwise nothing is sent before this instant (claim-time precision).
-- Adding a NOT NULL column with a default constant is a metadata-only change on SQL Server 2012+ (Enterprise)
-- and on every edition from 2016 SP1 onwards.
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'priority') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD priority varchar(6) NOT NULL
    CONSTRAINT DF_outbox_priority DEFAULT ('normal')
    CONSTRAINT CK_outbox_priority_known CHECK (priority IN ('urgent', 'normal', 'bulk'));
GO
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'not_before') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD not_before datetimeoffset(3) NULL;
GO
