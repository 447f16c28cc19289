-- Bounces and complaints (issue 32; idempotent; docs/bounces.md).
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 037_bounces.sql
-- An SMTP server's 250 is not delivery: a hard bounce comes minutes later as a DSN (RFC 3464) to the envelope sender, a
-- complaint as an ARF report (RFC 5965). The bounce receiver (Bounces/) writes what they say here, one row per
-- notification, outcome and recipient (the key makes the same report twice record once):
--   bounced     a permanent failure (Action: failed, Status 5.x.x): the address is suppressed as hard_bounce
--   complained  the recipient reported it as spam (Feedback-Type: abuse or fraud): suppressed as complaint (bulk mail)
--   deferred    a transient failure (Action: delayed, Status 4.x.x); Bounces:SoftBounceLimit of them to one address
--               within Bounces:SoftBounceWindow suppress it as soft_bounce
-- status: the enhanced status code (5.1.1) or the feedback type; diagnostic: the remote server's words.
-- notification_status answers 'bounced' and 'complained' from it: repeatable/10_notification_status.sql.
CREATE TABLE IF NOT EXISTS :"schema".notification_outcome (
    notification_id bigint                    NOT NULL,
    outcome         varchar(16)               NOT NULL CONSTRAINT notification_outcome_known CHECK (outcome IN ('bounced', 'complained', 'deferred')),
    recipient       varchar(320) COLLATE "C"  NOT NULL,
    status          varchar(32)               NULL,
    diagnostic      varchar(1000)             NULL,
    reported_at     timestamptz               NOT NULL DEFAULT now(),
    CONSTRAINT notification_outcome_pkey PRIMARY KEY (notification_id, outcome, recipient)
);
-- The soft-bounce count: an address's deferrals within the window.
CREATE INDEX IF NOT EXISTS notification_outcome_deferred ON :"schema".notification_outcome (recipient, reported_at) WHERE outcome = 'deferred';
-- The suppression reason of too many soft bounces.
SET search_path = :"schema";
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'suppression'::regclass AND conname = 'suppression_reason_known'
                   AND pg_get_constraintdef(oid) LIKE '%soft_bounce%') THEN
        ALTER TABLE suppression DROP CONSTRAINT IF EXISTS suppression_reason_known;
        ALTER TABLE suppression ADD CONSTRAINT suppression_reason_known
            CHECK (reason IN ('hard_bounce', 'complaint', 'unsubscribed', 'manual', 'unregistered', 'soft_bounce')) NOT VALID;
    END IF;
END
$guard$;
RESET search_path;
ALTER TABLE :"schema".suppression VALIDATE CONSTRAINT suppression_reason_known;
