-- Richer messages (idempotent): optional Reply-To, Cc, Bcc and custom headers per notification (docs/messages.md).
-- Apply with: psql -v schema=notifications -f 016_message_headers.sql
--   reply_to, cc, bcc: RFC 5322 address lists, comma-separated mailboxes ('a@example.com, "Doe, Jo" <jo@example.com>').
--   headers:           a JSON object of custom header names to string values ('{"X-Campaign": "spring"}').
-- What a CHECK can tell cheaply is refused at the insert: a line break in an address list (header injection),
-- and headers that are not a JSON object. Everything else (an address that does not parse, a header the system
-- owns, a CR or LF inside a header value) is dead-lettered by the consumer with its reason.
-- Nullable columns without a default: adding them is a catalog-only change, no table rewrite.
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS reply_to varchar(998) NULL
    CONSTRAINT outbox_reply_to_one_line CHECK (strpos(reply_to, chr(13)) = 0 AND strpos(reply_to, chr(10)) = 0);
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS cc varchar(4000) NULL
    CONSTRAINT outbox_cc_one_line CHECK (strpos(cc, chr(13)) = 0 AND strpos(cc, chr(10)) = 0);
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS bcc varchar(4000) NULL
    CONSTRAINT outbox_bcc_one_line CHECK (strpos(bcc, chr(13)) = 0 AND strpos(bcc, chr(10)) = 0);
-- text, not json/jsonb: an app's plain string parameter goes in without a cast, and the text reaches the
-- consumer as written (jsonb would reorder the headers). A value that is not JSON fails the cast: also an error.
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS headers text NULL
    CONSTRAINT outbox_headers_json_object CHECK (json_typeof(headers::json) = 'object');
