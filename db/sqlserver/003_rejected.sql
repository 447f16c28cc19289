-- Rows the producer could not publish at all (e.g. larger than the broker accepts), kept with the reason.
IF OBJECT_ID(N'[$(Schema)].[rejected]', N'U') IS NULL
CREATE TABLE [$(Schema)].[rejected] (
    id          bigint         NOT NULL,
    recipient   nvarchar(320)  NULL,
    subject     nvarchar(998)  NULL,
    body        nvarchar(max)  NULL,
    created_at  datetimeoffset(3) NULL,
    reason      nvarchar(1000) NOT NULL,
    rejected_at datetimeoffset(3) NOT NULL CONSTRAINT DF_rejected_rejected_at DEFAULT (SYSUTCDATETIME()),
    CONSTRAINT PK_rejected PRIMARY KEY CLUSTERED (id)
);
GO
