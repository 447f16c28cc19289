-- Delivery log: one row per notification id, written by the consumer. The primary key is what makes
-- consumers idempotent: a redelivered message finds its row and is not sent again.
IF OBJECT_ID(N'[$(Schema)].[delivery_log]', N'U') IS NULL
CREATE TABLE [$(Schema)].[delivery_log] (
    notification_id bigint        NOT NULL,
    status          varchar(16)   NOT NULL,   -- 'sending' (AtMostOnce mark before send) | 'sent'
    updated_at      datetimeoffset(3) NOT NULL CONSTRAINT DF_delivery_log_updated_at DEFAULT (SYSUTCDATETIME()),
    CONSTRAINT PK_delivery_log PRIMARY KEY CLUSTERED (notification_id)
);
GO
