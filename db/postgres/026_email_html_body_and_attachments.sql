-- Email parts (idempotent; docs/messages.md, docs/client.md): an HTML alternative to a plain-text body, and attached files.
-- Apply with: psql -v schema=notifications -f 026_email_html_body_and_attachments.sql
--   outbox.html_body:        the HTML part of a prepared multipart/alternative mail (the body is then its plain text)
--   outbox.attachment_count: how many rows of attachment the notification has (NULL: none); it travels in the message,
--                            so the consumer reads the table only for a mail that has files
--   attachment:              one file of a notification: name, media type, bytes. No foreign key to the outbox: the
--                            producer's claim deletes the outbox row, and the files must stay until the mail is sent;
--                            the retention cleanup deletes them with the notification's delivery-log or dead-letter row.
-- The limits (10 files, 10 MiB in all) are the client's check at enqueue (AttachmentRules); the table bounds the count.
-- Nullable columns without a default: adding them is a catalog-only change, no table rewrite.
-- With IsHtml the body is the HTML already: an HTML alternative goes with a plain-text body only.
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS html_body text NULL
    CONSTRAINT outbox_html_body_with_text CHECK (html_body IS NULL OR NOT is_html);
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS attachment_count smallint NULL
    CONSTRAINT outbox_attachment_count_range CHECK (attachment_count BETWEEN 1 AND 10);

CREATE TABLE IF NOT EXISTS :"schema".attachment (
    notification_id bigint       NOT NULL,
    position        smallint     NOT NULL CONSTRAINT attachment_position_range CHECK (position BETWEEN 0 AND 9),
    file_name       varchar(255) NOT NULL
        CONSTRAINT attachment_file_name_one_line CHECK (file_name !~ '[\x01-\x1f\x7f/\\]' AND length(btrim(file_name)) > 0),
    content_type    varchar(255) NOT NULL
        CONSTRAINT attachment_content_type_media_type CHECK (content_type ~ '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$'),
    content         bytea        NOT NULL CONSTRAINT attachment_content_size CHECK (octet_length(content) <= 10485760),
    created_at      timestamptz  NOT NULL DEFAULT now(),
    CONSTRAINT attachment_pkey PRIMARY KEY (notification_id, position)
);
