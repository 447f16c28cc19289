-- Fan-out (re-runnable; docs/fan-out.md): a row may address a subscriber or a topic instead of one address, and the
-- producer's fan-out stage turns it into one delivery per live contact point of the channels it names.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 030_fan_out.sql
--   outbox.channel 'audience'      the row is for people, not an address: recipient is 'subscriber:<the app''s id>' or
--                                  'topic:<name>' (AudienceRules' shapes, checked by outbox_audience_recipient)
--   outbox.channels                which channels its deliveries may use: 'email', 'push' or 'email,push'; set exactly
--                                  on an audience row (outbox_audience_channels: IS NOT NULL said, as a NULL would
--                                  make the IN, and so the check, unknown, which passes)
--   fanout_job                     one per audience row, written in the claim's transaction that deletes the row (so the
--                                  row leaves the outbox exactly when its job exists). parent: the row as the producer
--                                  claimed it (JSON), what every delivery copies. cursor: the last subscriber id whose
--                                  deliveries the broker confirmed; page_end: the last of the page materialised and not
--                                  yet confirmed (a restart publishes that page again, with the same ids). lease_owner
--                                  and lease_until: which producer works on it, until when (a killed one's lease runs
--                                  out and another resumes at the cursor). state: running | done | no_such_audience.
--   audience_delivery              one per contact point of the audience (or one per subscriber without any: outcome
--                                  no_contact), in the page's transaction: outcome published (its id is a notification
--                                  id, in the delivery log as any other), opted_out (the subscriber's preference or the
--                                  category's default) or no_contact
--   fanout_delivery_id             the deliveries' ids, from 2^62 up: never an outbox id (those count from 1, and SQL
--                                  Server's is an IDENTITY no sequence can share), so an id says which it is
SET search_path = :"schema";
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS channels varchar(16) NULL;
CREATE SEQUENCE IF NOT EXISTS fanout_delivery_id AS bigint START WITH 4611686018427387904 MINVALUE 4611686018427387904;
CREATE TABLE IF NOT EXISTS fanout_job (
    id          bigint        PRIMARY KEY,
    audience    varchar(320)  COLLATE "C" NOT NULL,
    channels    varchar(16)   NOT NULL,
    category    varchar(64)   COLLATE "C" NULL,
    parent      text          NOT NULL,
    state       varchar(16)   NOT NULL DEFAULT 'running'
        CONSTRAINT fanout_job_state_known CHECK (state IN ('running', 'done', 'no_such_audience')),
    "cursor"    bigint        NOT NULL DEFAULT 0,
    page_end    bigint        NULL,
    lease_owner varchar(100)  NULL,
    lease_until timestamptz   NULL,
    published   bigint        NOT NULL DEFAULT 0,
    opted_out   bigint        NOT NULL DEFAULT 0,
    no_contact  bigint        NOT NULL DEFAULT 0,
    reason      varchar(1000) NULL,
    created_at  timestamptz   NOT NULL DEFAULT now(),
    finished_at timestamptz   NULL
);
-- The stage's lease query reads the running jobs only: done ones stay for admin show until retention removes them.
CREATE INDEX IF NOT EXISTS fanout_job_running ON fanout_job (id) WHERE state = 'running';
-- The id's default names the sequence as resolved now (a regclass), whatever the search path of a later insert.
CREATE TABLE IF NOT EXISTS audience_delivery (
    id               bigint       PRIMARY KEY DEFAULT nextval('fanout_delivery_id') CONSTRAINT audience_delivery_id_range CHECK (id >= 4611686018427387904),
    parent_id        bigint       NOT NULL REFERENCES fanout_job (id) ON DELETE CASCADE,
    subscriber_id    bigint       NOT NULL,
    contact_point_id bigint       NULL,
    channel          varchar(8)   NULL,
    address          varchar(320) COLLATE "C" NULL,
    outcome          varchar(16)  NOT NULL
        CONSTRAINT audience_delivery_outcome_known CHECK (outcome IN ('published', 'opted_out', 'no_contact'))
);
-- A page again after a restart (parent, cursor < subscriber <= page_end), and admin show's list.
CREATE INDEX IF NOT EXISTS audience_delivery_parent ON audience_delivery (parent_id, subscriber_id);
DO $guard$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_channel_known'
                   AND pg_get_constraintdef(oid) LIKE '%audience%') THEN
        ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_channel_known;
        ALTER TABLE outbox ADD CONSTRAINT outbox_channel_known CHECK (channel IN ('email', 'webhook', 'push', 'audience')) NOT VALID;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_audience_channels') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_audience_channels CHECK (
            (channel = 'audience' AND channels IS NOT NULL AND channels IN ('email', 'push', 'email,push'))
            OR (channel <> 'audience' AND channels IS NULL)) NOT VALID;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = 'outbox'::regclass AND conname = 'outbox_audience_recipient') THEN
        ALTER TABLE outbox ADD CONSTRAINT outbox_audience_recipient CHECK (
            channel <> 'audience'
            OR recipient ~ '^subscriber:[A-Za-z0-9][A-Za-z0-9._:@+=-]{0,127}$'
            OR recipient ~ '^topic:[a-z0-9][a-z0-9._-]{0,127}$') NOT VALID;
    END IF;
END
$guard$;
-- Every row older than the column holds NULL channels and a known channel: nothing to fail.
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_channel_known;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_audience_channels;
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_audience_recipient;
RESET search_path;
