-- Suppression and unsubscribe (idempotent; docs/suppression.md).
-- Apply with: psql -v schema=notifications -f 015_suppression.sql
-- One row per key: a lower-case address ('user@example.com'), or '@' and a domain ('@example.com') for every
-- address at it. reason: hard_bounce (a 5xx to RCPT TO, written by the consumer), complaint, unsubscribed (the
-- one-click endpoint, RFC 8058), manual (scripts/admin suppression add). scope: 'all' stops every notification to the
-- key, 'bulk' only those of priority bulk (an unsubscribe is from bulk mail; transactional mail still goes).
-- A removed entry keeps its row with removed_at set (a tombstone), so that every consumer's cache, which reloads
-- the rows changed since its last look (changed_at), learns of the removal too; adding the key again revives the row.
CREATE TABLE IF NOT EXISTS :"schema".suppression (
    address    varchar(320)  NOT NULL PRIMARY KEY,
    reason     varchar(16)   NOT NULL CONSTRAINT suppression_reason_known CHECK (reason IN ('hard_bounce', 'complaint', 'unsubscribed', 'manual')),
    scope      varchar(8)    NOT NULL CONSTRAINT suppression_scope_known CHECK (scope IN ('all', 'bulk')),
    since      timestamptz   NOT NULL DEFAULT now(),
    detail     varchar(1000) NULL,
    changed_at timestamptz   NOT NULL DEFAULT clock_timestamp(),
    removed_at timestamptz   NULL
);
-- The consumers' refresh reads the rows changed since a watermark.
CREATE INDEX IF NOT EXISTS suppression_changed_at ON :"schema".suppression (changed_at);
-- delivery_log.status gains 'suppressed': not sent, because the recipient or its domain was on the list.
COMMENT ON COLUMN :"schema".delivery_log.status IS 'sending (AtMostOnce mark before send) | sent | suppressed (not sent: on the suppression list)';
-- notification_status answers 'suppressed' for such a notification: repeatable/10_notification_status.sql.
