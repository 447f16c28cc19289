-- Least privilege (docs/security.md): one NOLOGIN group role per code path, granted exactly what that code path runs.
-- Repeatable (docs/database.md): `migrate` runs it after every numbered migration and function, and again whenever this
-- file changes, so a grant added or removed here reaches every database at its next migrate; a migration that creates a
-- table adds the table's grants here. (It was the numbered 020_roles.sql until the migration journal.)
-- Logins are made by the deployment as members of these roles (scripts/setup, scripts/swarm):
--   CREATE ROLE notifications_producer_login LOGIN PASSWORD '<secret>' IN ROLE notifications_producer;
-- The login that applies the migrations (here `notifications`) owns the schema and is used for migrations only.
-- Apply by hand with: psql -v schema=notifications -f repeatable/90_roles.sql
--   notifications_app       business apps (Notifications.Client): enqueue, ask notification_status, write the audience
--                           registry (subscribers, contact points, subscriptions, preferences; categories read only)
--   notifications_producer  Producer/: claims (DELETE ... RETURNING) outbox rows, counts the backlog, records rejects
--   notifications_consumer  Consumer/: the delivery log, dead letters, rate limits, suppression, templates (read),
--                           webhook endpoints (read, disable), the retention cleanup, preferences (read); the outbox
--                           only to insert outcome events (docs/outcome-events.md)
--   notifications_admin     Admin/ (scripts/admin): status, purge, cleanup, dead-letter records, suppression,
--                           templates, webhook endpoints; never writes the outbox, the delivery log's 'sent' rows
--                           or dead letters
--   notifications_unsubscribe Unsubscribe/ (the public unsubscribe page): adds or revives suppression entries, opts an
--                           address's subscribers out of a category through opt_out_by_link; no other table (it faces
--                           the internet: docs/unsubscribe.md)
--   notifications_gateway   Gateway/ (apps' live connections): reads, marks sent and deletes pending live notifications;
--                           nothing else
--   notifications_bounces   Bounces/ (the bounce receiver, inbound SMTP): whether the delivery log knows a notification,
--                           the outcomes it records, the suppression store's add; nothing else (it faces the internet:
--                           docs/bounces.md)
-- Roles are cluster-wide, grants are per database: the roles are created once (by whichever migration run comes
-- first; a concurrent run in another database that made one meanwhile is fine), the grants in every database.
-- Creating a role needs CREATEROLE: scripts/setup creates the seven roles as the superuser before it migrates, so
-- the migrator needs no CREATEROLE; without the roles and without CREATEROLE this script stops with that advice.
-- One transaction: the grants are taken away and given again (so a grant removed from this file is removed on the
-- next run), and no worker sees the moment between.
BEGIN;

DO $roles$
DECLARE
    r text;
BEGIN
    FOREACH r IN ARRAY ARRAY['notifications_app', 'notifications_producer', 'notifications_consumer', 'notifications_admin',
                           'notifications_unsubscribe', 'notifications_gateway', 'notifications_bounces'] LOOP
        CONTINUE WHEN EXISTS (SELECT FROM pg_roles WHERE rolname = r);
        BEGIN
            EXECUTE format('CREATE ROLE %I NOLOGIN', r);
        EXCEPTION
            WHEN duplicate_object OR unique_violation THEN NULL;  -- another database's migration made it meanwhile
            WHEN insufficient_privilege THEN
                RAISE EXCEPTION 'role % does not exist and % may not create it', r, current_user
                    USING ERRCODE = 'insufficient_privilege',
                          HINT = 'create the seven roles once as a superuser (scripts/setup does), or give the migrator CREATEROLE; docs/security.md';
        END;
    END LOOP;
END
$roles$;

REVOKE ALL ON ALL TABLES IN SCHEMA :"schema"
    FROM notifications_app, notifications_producer, notifications_consumer, notifications_admin, notifications_unsubscribe, notifications_gateway, notifications_bounces;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA :"schema"
    FROM notifications_app, notifications_producer, notifications_consumer, notifications_admin, notifications_unsubscribe, notifications_gateway, notifications_bounces;
-- Functions are executable by PUBLIC by default: not these.
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA :"schema"
    FROM PUBLIC, notifications_app, notifications_producer, notifications_consumer, notifications_admin, notifications_unsubscribe, notifications_gateway, notifications_bounces;
GRANT USAGE ON SCHEMA :"schema" TO notifications_app, notifications_producer, notifications_consumer, notifications_admin, notifications_unsubscribe, notifications_gateway, notifications_bounces;

-- notification_status reads the delivery log, dead letters and rejects, which the app may not read: it runs with its
-- owner's rights (SECURITY DEFINER, said by its own file, repeatable/10_notification_status.sql).

-- The app: INSERT ... RETURNING id reads the id column; the idempotent insert takes the next id itself
-- (nextval) and looks its key up.
GRANT INSERT, SELECT (id) ON :"schema".outbox TO notifications_app;
GRANT USAGE ON SEQUENCE :"schema".outbox_id_seq TO notifications_app;
GRANT INSERT, SELECT (idempotency_key, notification_id) ON :"schema".idempotency_key TO notifications_app;
-- Attached files: inserted with the outbox row, never read back by the app.
GRANT INSERT ON :"schema".attachment TO notifications_app;
-- The template check at enqueue (docs/templates.md): the names, locales, versions and variables, never the sources.
GRANT SELECT (name, locale, version, variables) ON :"schema".template TO notifications_app;
GRANT EXECUTE ON FUNCTION :"schema".notification_status(bigint) TO notifications_app, notifications_admin;
-- The audience registry (025, docs/audiences.md), written by the client's ISubscriberRegistry: upserts (INSERT ... ON
-- CONFLICT DO UPDATE), devices added and removed, subscriptions, preferences. Categories are the admin's: the app reads
-- them (a critical one refuses an opt-out). Identity columns take their ids without a grant on their sequences.
GRANT SELECT, INSERT, UPDATE ON :"schema".subscriber TO notifications_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON :"schema".contact_point TO notifications_app;
GRANT SELECT, INSERT ON :"schema".topic TO notifications_app;
GRANT SELECT, INSERT, DELETE ON :"schema".subscription TO notifications_app;
GRANT SELECT ON :"schema".category TO notifications_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON :"schema".preference TO notifications_app;

-- SELECT ... FOR UPDATE (the claim, the retention cleanup's batches) needs UPDATE on at least one column of the
-- table: each such role gets it on one timestamp column only (the worst such an UPDATE could do is move that time).

-- The producer: the claim (DELETE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED) RETURNING ...), the backlog
-- count, and the rejects (INSERT ... ON CONFLICT DO UPDATE).
GRANT SELECT, DELETE, UPDATE (created_at) ON :"schema".outbox TO notifications_producer;
GRANT SELECT, INSERT, UPDATE ON :"schema".rejected TO notifications_producer;
-- The fan-out stage (030, docs/fan-out.md): an audience row's job, written in the claim's transaction; its pages read
-- from the registry (who, which live contact points, their preferences) and written as deliveries, whose ids come from
-- the sequence fanout_delivery_id (the column's default). Nothing of the registry is written.
GRANT SELECT, INSERT, UPDATE ON :"schema".fanout_job TO notifications_producer;
GRANT SELECT, INSERT ON :"schema".audience_delivery TO notifications_producer;
GRANT USAGE ON SEQUENCE :"schema".fanout_delivery_id TO notifications_producer;
GRANT SELECT (id, external_id, locale) ON :"schema".subscriber TO notifications_producer;
GRANT SELECT (id, subscriber_id, channel, address, dead_at) ON :"schema".contact_point TO notifications_producer;
GRANT SELECT (id, name) ON :"schema".topic TO notifications_producer;
GRANT SELECT (topic_id, subscriber_id) ON :"schema".subscription TO notifications_producer;
GRANT SELECT ON :"schema".category, :"schema".category_default, :"schema".preference TO notifications_producer;

-- The consumer.
GRANT SELECT, INSERT, UPDATE, DELETE ON :"schema".delivery_log TO notifications_consumer;
GRANT SELECT, INSERT, DELETE, UPDATE (dead_lettered_at) ON :"schema".dead_letter TO notifications_consumer;
GRANT SELECT, INSERT, UPDATE ON :"schema".rate_limit TO notifications_consumer;
-- The send window (044): a send's row in, its end recorded, a second later deleted.
GRANT SELECT, INSERT, UPDATE, DELETE ON :"schema".rate_limit_send TO notifications_consumer;
GRANT SELECT, INSERT, UPDATE ON :"schema".suppression TO notifications_consumer;
GRANT SELECT ON :"schema".template TO notifications_consumer;
GRANT SELECT, UPDATE ON :"schema".webhook_endpoint TO notifications_consumer;
GRANT SELECT, UPDATE ON :"schema".retention TO notifications_consumer;
-- The retention cleanup removes fan-outs finished longer ago than the delivery log's records (docs/fan-out.md).
GRANT SELECT, DELETE ON :"schema".fanout_job, :"schema".audience_delivery TO notifications_consumer;
-- An unregistered push token marks its contact points dead (the suppression store's add): that, and nothing else of the registry.
GRANT SELECT (channel, address, dead_at, subscriber_id), UPDATE (dead_at, dead_reason) ON :"schema".contact_point TO notifications_consumer;
-- Preferences (029, docs/preferences.md): before it sends a row with a category, whether a subscriber of the address opted
-- out of it on the row's channel (reason names the subscriber by the app's id). Read only: the app writes preferences,
-- the admin tool categories and their defaults.
GRANT SELECT (id, external_id) ON :"schema".subscriber TO notifications_consumer;
GRANT SELECT ON :"schema".category, :"schema".category_default, :"schema".preference TO notifications_consumer;
GRANT SELECT, DELETE, UPDATE (created_at) ON :"schema".idempotency_key TO notifications_consumer;
-- Attached files: read to send, deleted by the retention cleanup with their notification's records.
GRANT SELECT, DELETE ON :"schema".attachment TO notifications_consumer;
-- A sent notification's later outcomes (037) go with its delivery-log row in the retention cleanup.
GRANT SELECT, DELETE ON :"schema".notification_outcome TO notifications_consumer;
-- The live channel (033, docs/live.md) writes a row's pending notification for the gateway, expiring a subscriber's oldest
-- past the cap; the retention cleanup removes expired ones.
GRANT SELECT, INSERT, DELETE, UPDATE (expires_at) ON :"schema".live_pending TO notifications_consumer;
-- A live row to a topic is one broadcast row (042), its topic looked up by name; the retention cleanup removes expired ones
-- (their receipts with them).
GRANT SELECT, INSERT, DELETE ON :"schema".live_broadcast TO notifications_consumer;
GRANT SELECT (id, name) ON :"schema".topic TO notifications_consumer;
-- Outcome events (038, docs/outcome-events.md): an event is an outbox row of the webhook channel, inserted with its
-- outcome_event row in one transaction (the delivered ones in the delivery log's batch); the subscriptions are read.
GRANT INSERT ON :"schema".outbox TO notifications_consumer;
GRANT USAGE ON SEQUENCE :"schema".outbox_id_seq TO notifications_consumer;
GRANT SELECT, INSERT, DELETE ON :"schema".outcome_event TO notifications_consumer;
GRANT SELECT ON :"schema".webhook_event_subscription TO notifications_consumer;
-- A notification's story (039): each failed attempt is recorded on the retry path; the retention cleanup deletes them.
GRANT SELECT, INSERT, DELETE ON :"schema".delivery_attempt TO notifications_consumer;

-- The admin tool: status and purge (outbox count and DELETE), the delivery window, release of 'sending' marks and
-- the cleanup (DELETE on the delivery log, dead letters and keys), dead-letter records, and the catalogues.
GRANT SELECT, DELETE ON :"schema".outbox TO notifications_admin;
GRANT SELECT, DELETE, UPDATE (updated_at) ON :"schema".delivery_log TO notifications_admin;
GRANT SELECT, DELETE ON :"schema".delivery_attempt TO notifications_admin;
GRANT SELECT, DELETE, UPDATE (dead_lettered_at) ON :"schema".dead_letter TO notifications_admin;
GRANT SELECT, DELETE, UPDATE (created_at) ON :"schema".idempotency_key TO notifications_admin;
GRANT SELECT, DELETE ON :"schema".attachment TO notifications_admin;
GRANT SELECT, UPDATE ON :"schema".retention TO notifications_admin;
GRANT SELECT, INSERT, UPDATE ON :"schema".suppression TO notifications_admin;
GRANT SELECT, INSERT ON :"schema".template TO notifications_admin;
GRANT SELECT, INSERT, UPDATE ON :"schema".webhook_endpoint TO notifications_admin;
GRANT SELECT, INSERT, DELETE ON :"schema".webhook_event_subscription TO notifications_admin;
GRANT SELECT, DELETE ON :"schema".outcome_event TO notifications_admin;
-- The audience registry: read (subscribers show, topics list), categories and their defaults put, operators' edits.
GRANT SELECT, INSERT, UPDATE, DELETE ON :"schema".subscriber, :"schema".contact_point, :"schema".topic, :"schema".subscription,
      :"schema".category, :"schema".category_default, :"schema".preference TO notifications_admin;
-- Fan-out jobs and their deliveries: admin show, and the retention cleanup's deletes; likewise expired live notifications.
GRANT SELECT, DELETE ON :"schema".fanout_job, :"schema".audience_delivery TO notifications_admin;
GRANT SELECT, DELETE ON :"schema".live_pending TO notifications_admin;
GRANT SELECT, DELETE ON :"schema".live_broadcast, :"schema".live_broadcast_receipt TO notifications_admin;
-- The console's operations (036, docs/console.md): a notification's story reads its rejection; bulk requeue and purge
-- jobs are created, claimed and advanced by the admin role (the tool and the console).
GRANT SELECT ON :"schema".rejected TO notifications_admin;
GRANT SELECT, INSERT, UPDATE ON :"schema".admin_job TO notifications_admin;
-- The overview reads the fleet's rate limits (slowed down or not), never changes them.
GRANT SELECT ON :"schema".rate_limit TO notifications_admin;
-- A notification's story shows its later outcome (037, docs/bounces.md); the cleanup removes it with the delivery log.
GRANT SELECT, DELETE ON :"schema".notification_outcome TO notifications_admin;

-- The unsubscribe process: the suppression store's add (INSERT ... ON CONFLICT (address) DO UPDATE ... WHERE on the
-- old row's removed_at and scope). The upsert needs SELECT on every column it reads, EXCLUDED's (reason, detail)
-- included; nothing on any other table, no DELETE.
GRANT INSERT (address, reason, scope, detail), SELECT (address, reason, scope, detail, removed_at),
      UPDATE (reason, scope, detail, since, changed_at, removed_at) ON :"schema".suppression TO notifications_unsubscribe;
-- A link of a mail with a category opts the address's subscribers out of it (repeatable/30_opt_out_by_link.sql, SECURITY
-- DEFINER): the function, not the registry's tables.
GRANT EXECUTE ON FUNCTION :"schema".opt_out_by_link(varchar, varchar, varchar) TO notifications_unsubscribe;

-- The gateway (Gateway/, issue 30): a subscriber's pending live notifications, read on connect and deleted by the ack;
-- at most once, a row is marked sent before it goes out; an expired one is marked reported (041) by the expiry sweep.
GRANT SELECT, DELETE, UPDATE (sent_at, expiry_reported_at) ON :"schema".live_pending TO notifications_gateway;
-- A broadcast to a topic (042): read with the topic's subscribers and their live preferences; a subscriber's ack, or at
-- most once its mark, is its receipt.
GRANT SELECT ON :"schema".live_broadcast TO notifications_gateway;
GRANT SELECT, INSERT, UPDATE (sent_at, acked_at) ON :"schema".live_broadcast_receipt TO notifications_gateway;
GRANT SELECT (id, external_id) ON :"schema".subscriber TO notifications_gateway;
GRANT SELECT (topic_id, subscriber_id, created_at) ON :"schema".subscription TO notifications_gateway;
GRANT SELECT ON :"schema".category, :"schema".category_default, :"schema".preference TO notifications_gateway;
-- An ack and an expiry are outcome events (notification.acked, .expired; docs/outcome-events.md), written by
-- Shared/Outcomes/OutcomeEvents in the ack's and the sweep's transaction: a webhook outbox row and its outcome_event row.
GRANT INSERT ON :"schema".outbox TO notifications_gateway;
GRANT USAGE ON SEQUENCE :"schema".outbox_id_seq TO notifications_gateway;
GRANT SELECT, INSERT ON :"schema".outcome_event TO notifications_gateway;
GRANT SELECT ON :"schema".webhook_event_subscription TO notifications_gateway;
GRANT SELECT (name, disabled_at) ON :"schema".webhook_endpoint TO notifications_gateway;

-- The bounce receiver (Bounces/, issue 32, docs/bounces.md): whether the delivery log knows the reported notification
-- (its id column only), the outcomes (INSERT ... ON CONFLICT DO NOTHING; an address's deferrals counted), and the
-- suppression store's add, as the unsubscribe process has it. Nothing else: it takes mail from the internet.
GRANT SELECT (notification_id) ON :"schema".delivery_log TO notifications_bounces;
GRANT SELECT, INSERT ON :"schema".notification_outcome TO notifications_bounces;
GRANT INSERT (address, reason, scope, detail), SELECT (address, reason, scope, detail, removed_at),
      UPDATE (reason, scope, detail, since, changed_at, removed_at) ON :"schema".suppression TO notifications_bounces;
-- A bounce or complaint recorded is an outcome event for the endpoints subscribed to it (038, docs/outcome-events.md):
-- a webhook outbox row and its outcome_event row, written by Shared/Outcomes/OutcomeEvents in the report's transaction.
GRANT INSERT ON :"schema".outbox TO notifications_bounces;
GRANT USAGE ON SEQUENCE :"schema".outbox_id_seq TO notifications_bounces;
GRANT SELECT, INSERT ON :"schema".outcome_event TO notifications_bounces;
GRANT SELECT ON :"schema".webhook_event_subscription TO notifications_bounces;
GRANT SELECT (name, disabled_at) ON :"schema".webhook_endpoint TO notifications_bounces;

COMMIT;
