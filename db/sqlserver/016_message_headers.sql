-- Richer messages (idempotent): optional Reply-To, Cc, Bcc and custom headers per notification (docs/messages.md).
-- Apply with: sqlcmd -v Schema=notifications -i 016_message_headers.sql
--   reply_to, cc, bcc: RFC 5322 address lists, comma-separated mailboxes ('a@example.com, "Doe, Jo" <jo@example.com>').
--   headers:           a JSON object of custom header names to string values ('{"X-Campaign": "spring"}').
-- What a CHECK can tell cheaply is refused at the insert: a line break in an address list (header injection),
-- and headers that are not a JSON object. Everything else (an address that does not parse, a header the system
-- owns, a CR or LF inside a header value) is dead-lettered by the consumer with its reason.
-- nvarchar: limits count characters, as in PostgreSQL (see 006). Nullable columns: a metadata-only change.
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'reply_to') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD reply_to nvarchar(998) NULL
    CONSTRAINT CK_outbox_reply_to_one_line CHECK (CHARINDEX(NCHAR(13), reply_to) = 0 AND CHARINDEX(NCHAR(10), reply_to) = 0);
GO
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'cc') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD cc nvarchar(4000) NULL
    CONSTRAINT CK_outbox_cc_one_line CHECK (CHARINDEX(NCHAR(13), cc) = 0 AND CHARINDEX(NCHAR(10), cc) = 0);
GO
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'bcc') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD bcc nvarchar(4000) NULL
    CONSTRAINT CK_outbox_bcc_one_line CHECK (CHARINDEX(NCHAR(13), bcc) = 0 AND CHARINDEX(NCHAR(10), bcc) = 0);
GO
-- ISJSON(headers, OBJECT) needs SQL Server 2022; on 2019 ISJSON accepts an object or an array, and the first
-- character past any JSON whitespace tells which.
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'headers') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD headers nvarchar(max) NULL
    CONSTRAINT CK_outbox_headers_json_object CHECK (
        ISJSON(headers) = 1 AND LEFT(TRIM(NCHAR(9) + NCHAR(10) + NCHAR(13) + N' ' FROM headers), 1) = N'{');
GO
