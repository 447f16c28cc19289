-- Idempotency keys (idempotent): a business app may give a notification a key (Notifications.Client,
-- NewNotification.IdempotencyKey); enqueuing the same key again inserts nothing and returns the first id.
-- Apply with: sqlcmd -v Schema=notifications -i 013_idempotency_key.sql
-- The keys live in their own table, not in the outbox, because the producer deletes an outbox row when it
-- claims it: a key must outlive its row. The client writes the key in the caller's transaction; the
-- retention cleanup deletes keys older than the delivery log's retention (Retention:DeliveryLog).
-- nvarchar: the 200-character limit counts characters, as in PostgreSQL (see 006).
IF OBJECT_ID(N'[$(Schema)].[idempotency_key]', N'U') IS NULL
CREATE TABLE [$(Schema)].[idempotency_key] (
    idempotency_key nvarchar(200)     NOT NULL CONSTRAINT PK_idempotency_key PRIMARY KEY,
    notification_id bigint            NOT NULL,
    created_at      datetimeoffset(3) NOT NULL CONSTRAINT DF_idempotency_key_created_at DEFAULT (SYSUTCDATETIME())
);
GO
-- The retention cleanup deletes the oldest keys first.
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_idempotency_key_created_at' AND object_id = OBJECT_ID(N'[$(Schema)].[idempotency_key]'))
CREATE INDEX IX_idempotency_key_created_at ON [$(Schema)].[idempotency_key] (created_at);
GO
