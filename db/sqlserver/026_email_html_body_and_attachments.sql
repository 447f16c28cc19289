-- Email parts (idempotent; docs/messages.md, docs/client.md): an HTML alternative to a plain-text body, and attached files.
-- Apply with: sqlcmd -v Schema=notifications -i 026_email_html_body_and_attachments.sql
--   outbox.html_body:        the HTML part of a prepared multipart/alternative mail (the body is then its plain text)
--   outbox.attachment_count: how many rows of attachment the notification has (NULL: none); it travels in the message,
--                            so the consumer reads the table only for a mail that has files
--   attachment:              one file of a notification: name, media type, bytes. No foreign key to the outbox: the
--                            producer's claim deletes the outbox row, and the files must stay until the mail is sent;
--                            the retention cleanup deletes them with the notification's delivery-log or dead-letter row.
-- The limits (10 files, 10 MiB in all) are the client's check at enqueue (AttachmentRules); the table bounds the count.
-- nvarchar: limits count characters, as in PostgreSQL (see 006). Nullable columns: a metadata-only change.
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'html_body') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD html_body nvarchar(max) NULL
    CONSTRAINT CK_outbox_html_body_with_text CHECK (html_body IS NULL OR is_html = 0);
GO
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'attachment_count') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD attachment_count smallint NULL
    CONSTRAINT CK_outbox_attachment_count_range CHECK (attachment_count BETWEEN 1 AND 10);
GO
IF OBJECT_ID(N'[$(Schema)].[attachment]', N'U') IS NULL
CREATE TABLE [$(Schema)].[attachment] (
    notification_id bigint            NOT NULL,
    position        smallint          NOT NULL CONSTRAINT CK_attachment_position_range CHECK (position BETWEEN 0 AND 9),
    file_name       nvarchar(255)     NOT NULL
        CONSTRAINT CK_attachment_file_name_one_line CHECK (
            LEN(file_name) > 0 AND file_name NOT LIKE N'%[/\' + NCHAR(1) + N'-' + NCHAR(31) + NCHAR(127) + N']%' COLLATE Latin1_General_BIN2),
    content_type    varchar(255)      NOT NULL
        CONSTRAINT CK_attachment_content_type_media_type CHECK (
            content_type LIKE '[A-Za-z0-9]%/[A-Za-z0-9]%' COLLATE Latin1_General_BIN2
            AND content_type NOT LIKE '%[^A-Za-z0-9!#$&^_.+/-]%' COLLATE Latin1_General_BIN2
            AND content_type NOT LIKE '%/%/%'),
    content         varbinary(max)    NOT NULL CONSTRAINT CK_attachment_content_size CHECK (DATALENGTH(content) <= 10485760),
    created_at      datetimeoffset(3) NOT NULL CONSTRAINT DF_attachment_created_at DEFAULT (SYSUTCDATETIME()),
    CONSTRAINT PK_attachment PRIMARY KEY CLUSTERED (notification_id, position)
);
GO
