-- The operators' console (issue 31; re-runnable; docs/console.md): dead letters grouped by a normalised reason, one
-- notification found by recipient or subscriber, and bulk requeue/purge jobs whose progress outlives a page or a process.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 036_console_operations.sql
--   dead_letter.reason_class  the reason with what varies per message taken out (addresses, GUIDs, runs of digits), cut to 200
--                             characters: written by the consumer with each row (DeadLetterReasonClass), the group key of
--                             `admin dead-letters groups`. Rows from before 036 are backfilled with each digit
--                             replaced by # only (the same in both dialects: T-SQL has no regular expressions), so
--                             an old row whose reason names an address or a long number may sit in a group of its
--                             own; a consumer from before 036 writes '' (listed as "(unclassified)").
--   admin_job                 one bulk requeue or purge: a whole group (reason_class) or a list of notification ids;
--                             total/done/failed as the runner persists them; lease_owner/lease_until: the runner working
--                             on it (a stopped one's lease runs out and another resumes it with what is left).
SET search_path = :"schema";
ALTER TABLE dead_letter ADD COLUMN IF NOT EXISTS reason_class varchar(200) NOT NULL DEFAULT '';
UPDATE dead_letter SET reason_class = left(translate(reason, '0123456789', '##########'), 200) WHERE reason_class = '';
-- Groups page by reason_class and count, first and last instant from the index alone.
CREATE INDEX IF NOT EXISTS dead_letter_reason_class ON dead_letter (reason_class, dead_lettered_at);
-- A notification found by subscriber or by address: its deliveries (the fan-out's), and an audience row's job.
CREATE INDEX IF NOT EXISTS audience_delivery_subscriber ON audience_delivery (subscriber_id, id);
CREATE INDEX IF NOT EXISTS audience_delivery_address ON audience_delivery (address, id) WHERE address IS NOT NULL;
CREATE INDEX IF NOT EXISTS fanout_job_audience ON fanout_job (audience, id);
CREATE TABLE IF NOT EXISTS admin_job (
    id               bigint        GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind             varchar(16)   NOT NULL CONSTRAINT admin_job_kind_known CHECK (kind IN ('requeue', 'purge')),
    reason_class     varchar(200)  NULL,
    notification_ids text          NULL,
    requested_by     varchar(200)  NOT NULL,
    state            varchar(16)   NOT NULL DEFAULT 'queued'
        CONSTRAINT admin_job_state_known CHECK (state IN ('queued', 'running', 'done', 'failed')),
    total            bigint        NULL,
    done             bigint        NOT NULL DEFAULT 0,
    failed           bigint        NOT NULL DEFAULT 0,
    lease_owner      varchar(100)  NULL,
    lease_until      timestamptz   NULL,
    created_at       timestamptz   NOT NULL DEFAULT now(),
    started_at       timestamptz   NULL,
    finished_at      timestamptz   NULL,
    last_error       varchar(1000) NULL,
    CONSTRAINT admin_job_one_selection CHECK ((reason_class IS NULL) <> (notification_ids IS NULL))
);
-- The runners' claim reads the open jobs only.
CREATE INDEX IF NOT EXISTS admin_job_open ON admin_job (id) WHERE state IN ('queued', 'running');
RESET search_path;
