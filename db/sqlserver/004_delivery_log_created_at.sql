-- The outbox row's created_at, copied into the delivery log when the send is recorded: the delivery SLO
-- (share delivered within 1 s / 2 min of the insert) is computed from updated_at - created_at, both
-- taken by the database's clock. NULL for rows recorded before this column existed.
IF COL_LENGTH(N'[$(Schema)].[delivery_log]', N'created_at') IS NULL
ALTER TABLE [$(Schema)].[delivery_log] ADD created_at datetimeoffset(3) NULL;
GO
