-- Outbox: business apps insert here inside their own transaction; the producer claims and deletes.
-- Apply with: sqlcmd -v Schema=notifications -i 001_outbox.sql   (idempotent)
-- The clustered key is the identity, so the claim (TOP n ... ORDER BY id with READPAST) reads the
-- oldest rows from one end of the B-tree while inserts append at the other end.
IF SCHEMA_ID(N'$(Schema)') IS NULL EXEC (N'CREATE SCHEMA [$(Schema)]');
GO
IF OBJECT_ID(N'[$(Schema)].[outbox]', N'U') IS NULL
CREATE TABLE [$(Schema)].[outbox] (
    id          bigint IDENTITY(1,1) NOT NULL,
    recipient   nvarchar(320)  NOT NULL,
    subject     nvarchar(998)  NOT NULL,
    body        nvarchar(max)  NOT NULL,
    is_html     bit            NOT NULL CONSTRAINT DF_outbox_is_html DEFAULT (0),
    created_at  datetimeoffset(3) NOT NULL CONSTRAINT DF_outbox_created_at DEFAULT (SYSUTCDATETIME()),
    expires_at  datetimeoffset(3) NULL,
    CONSTRAINT PK_outbox PRIMARY KEY CLUSTERED (id),
    CONSTRAINT CK_outbox_id_positive CHECK (id > 0)
);
GO
-- Claims delete thousands of rows at a time; row locks must not escalate to a table lock, or
-- concurrent inserts from the business apps and other producers would block.
ALTER TABLE [$(Schema)].[outbox] SET (LOCK_ESCALATION = DISABLE);
GO
-- Every business app inserts at the end of the identity key: under many concurrent single-row inserts
-- the last page becomes a latch hot spot (PAGELATCH_EX waits). SQL Server 2019+ meters those inserts.
ALTER INDEX PK_outbox ON [$(Schema)].[outbox] SET (OPTIMIZE_FOR_SEQUENTIAL_KEY = ON);
GO
