-- Claim indexes for the priority lanes and scheduled sends (idempotent). The producer claims per priority
-- (urgent, then normal, then bulk), each priority in two steps, each on its own filtered index:
--   IX_outbox_claim      rows to send now (not_before IS NULL), oldest first: (priority, id)
--   IX_outbox_scheduled  rows with a not_before, earliest first: (priority, not_before, id); the claim seeks
--                        only the due range (not_before <= SYSDATETIMEOFFSET()), so rows scheduled for later
--                        cost nothing
-- A filtered index needs these SET options in the session that creates it and in every session that writes
-- the table (SqlClient's defaults; sqlcmd needs -I for QUOTED_IDENTIFIER), else error 1934.
-- OPTIMIZE_FOR_SEQUENTIAL_KEY as on PK_outbox: inserts append at the end of each priority's range.
SET ANSI_NULLS ON;
SET QUOTED_IDENTIFIER ON;
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE object_id = OBJECT_ID(N'[$(Schema)].[outbox]') AND name = N'IX_outbox_claim')
CREATE NONCLUSTERED INDEX IX_outbox_claim ON [$(Schema)].[outbox] (priority, id)
    WHERE not_before IS NULL
    WITH (OPTIMIZE_FOR_SEQUENTIAL_KEY = ON);
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE object_id = OBJECT_ID(N'[$(Schema)].[outbox]') AND name = N'IX_outbox_scheduled')
CREATE NONCLUSTERED INDEX IX_outbox_scheduled ON [$(Schema)].[outbox] (priority, not_before, id)
    WHERE not_before IS NOT NULL;
GO
