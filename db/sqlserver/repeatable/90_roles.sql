-- Least privilege (idempotent; docs/security.md): one database role per code path, granted exactly what that code
-- path runs (the same five roles and grants as PostgreSQL's repeatable/90_roles.sql). Repeatable (docs/database.md):
-- `migrate` runs it after every numbered migration and function, and again whenever this file changes; a migration
-- that creates a table adds the table's grants here. (It was the numbered 020_roles.sql until the migration journal.)
-- Logins are made by the deployment and added to these roles (docs/security.md, "Logins on SQL Server"):
--   CREATE LOGIN [notifications_producer_login] WITH PASSWORD = N'<secret>';
--   CREATE USER [notifications_producer_login] FOR LOGIN [notifications_producer_login];
--   ALTER ROLE [notifications_producer] ADD MEMBER [notifications_producer_login];
-- The login that applies the migrations owns the schema (dbo) and is used for migrations only.
-- Apply by hand with: sqlcmd -v Schema=notifications -i repeatable/90_roles.sql
-- Roles are per database, grants per schema: a database holding several schemas gets the roles once and the
-- grants for each schema. notification_status is an inline table-valued function (SELECT, not EXECUTE); its
-- reads of the tables go through ownership chaining (same owner), so the app may ask it without reading them.
-- OUTPUT INSERTED.id / DELETED.* need SELECT on the columns they return: the app gets SELECT on outbox.id only.
IF DATABASE_PRINCIPAL_ID(N'notifications_app') IS NULL CREATE ROLE [notifications_app];
IF DATABASE_PRINCIPAL_ID(N'notifications_producer') IS NULL CREATE ROLE [notifications_producer];
IF DATABASE_PRINCIPAL_ID(N'notifications_consumer') IS NULL CREATE ROLE [notifications_consumer];
IF DATABASE_PRINCIPAL_ID(N'notifications_admin') IS NULL CREATE ROLE [notifications_admin];
IF DATABASE_PRINCIPAL_ID(N'notifications_unsubscribe') IS NULL CREATE ROLE [notifications_unsubscribe];
IF DATABASE_PRINCIPAL_ID(N'notifications_gateway') IS NULL CREATE ROLE [notifications_gateway];
IF DATABASE_PRINCIPAL_ID(N'notifications_bounces') IS NULL CREATE ROLE [notifications_bounces];
GO
-- The app: the insert (OUTPUT INSERTED.id), the idempotent insert (the key look-up WITH (UPDLOCK, HOLDLOCK) and its
-- insert), and notification_status.
GRANT INSERT ON [$(Schema)].[outbox] TO [notifications_app];
GRANT SELECT ON [$(Schema)].[outbox] ([id]) TO [notifications_app];
GRANT SELECT, INSERT ON [$(Schema)].[idempotency_key] TO [notifications_app];
GRANT INSERT ON [$(Schema)].[attachment] TO [notifications_app];
-- The template check at enqueue (docs/templates.md): the names, locales, versions and variables, never the sources.
GRANT SELECT ON [$(Schema)].[template] ([name], [locale], [version], [variables]) TO [notifications_app];
GRANT SELECT ON [$(Schema)].[notification_status] TO [notifications_app], [notifications_admin];
GO
-- The app: the audience registry (025, docs/audiences.md), written by the client's ISubscriberRegistry (MERGE upserts,
-- devices added and removed, subscriptions, preferences); categories are the admin's, read only.
GRANT SELECT, INSERT, UPDATE ON [$(Schema)].[subscriber] TO [notifications_app];
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[contact_point] TO [notifications_app];
GRANT SELECT, INSERT ON [$(Schema)].[topic] TO [notifications_app];
GRANT SELECT, INSERT, DELETE ON [$(Schema)].[subscription] TO [notifications_app];
GRANT SELECT ON [$(Schema)].[category] TO [notifications_app];
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[preference] TO [notifications_app];
GO
-- The producer: the claim (DELETE ... OUTPUT DELETED.* WITH (READPAST)), the backlog count, the rejects (MERGE).
GRANT SELECT, DELETE ON [$(Schema)].[outbox] TO [notifications_producer];
GRANT SELECT, INSERT, UPDATE ON [$(Schema)].[rejected] TO [notifications_producer];
-- The fan-out stage (030, docs/fan-out.md): audience jobs and their deliveries; the registry read, never written. The
-- deliveries' ids come from the sequence (the column's default): UPDATE on a sequence is what NEXT VALUE FOR asks.
GRANT SELECT, INSERT, UPDATE ON [$(Schema)].[fanout_job] TO [notifications_producer];
GRANT SELECT, INSERT ON [$(Schema)].[audience_delivery] TO [notifications_producer];
GRANT UPDATE ON [$(Schema)].[fanout_delivery_id] TO [notifications_producer];
GRANT SELECT ([id], [external_id], [locale]) ON [$(Schema)].[subscriber] TO [notifications_producer];
GRANT SELECT ([id], [subscriber_id], [channel], [address], [dead_at]) ON [$(Schema)].[contact_point] TO [notifications_producer];
GRANT SELECT ([id], [name]) ON [$(Schema)].[topic] TO [notifications_producer];
GRANT SELECT ON [$(Schema)].[subscription] TO [notifications_producer];
GRANT SELECT ON [$(Schema)].[category] TO [notifications_producer];
GRANT SELECT ON [$(Schema)].[category_default] TO [notifications_producer];
GRANT SELECT ON [$(Schema)].[preference] TO [notifications_producer];
GO
-- The consumer: the outbox only to insert outcome events (038, docs/outcome-events.md; OUTPUT INSERTED.id reads the id).
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[delivery_log] TO [notifications_consumer];
GRANT SELECT, INSERT, DELETE ON [$(Schema)].[dead_letter] TO [notifications_consumer];
GRANT SELECT, INSERT, UPDATE ON [$(Schema)].[rate_limit] TO [notifications_consumer];
-- The send window (044): a send's row in, its end recorded, a second later deleted.
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[rate_limit_send] TO [notifications_consumer];
GRANT SELECT, INSERT, UPDATE ON [$(Schema)].[suppression] TO [notifications_consumer];
GRANT SELECT ON [$(Schema)].[template] TO [notifications_consumer];
GRANT SELECT, UPDATE ON [$(Schema)].[webhook_endpoint] TO [notifications_consumer];
GRANT INSERT ON [$(Schema)].[outbox] TO [notifications_consumer];
GRANT SELECT ON [$(Schema)].[outbox] ([id]) TO [notifications_consumer];
GRANT SELECT, INSERT, DELETE ON [$(Schema)].[outcome_event] TO [notifications_consumer];
GRANT SELECT ON [$(Schema)].[webhook_event_subscription] TO [notifications_consumer];
GRANT SELECT, UPDATE ON [$(Schema)].[retention] TO [notifications_consumer];
-- The retention cleanup removes fan-outs finished longer ago than the delivery log's records (docs/fan-out.md).
GRANT SELECT, DELETE ON [$(Schema)].[fanout_job] TO [notifications_consumer];
GRANT SELECT, DELETE ON [$(Schema)].[audience_delivery] TO [notifications_consumer];
GRANT SELECT, DELETE ON [$(Schema)].[idempotency_key] TO [notifications_consumer];
-- An unregistered push token marks its contact points dead (the suppression store's add): that, and nothing else of the registry.
GRANT SELECT ([channel], [address], [dead_at], [subscriber_id]) ON [$(Schema)].[contact_point] TO [notifications_consumer];
-- Preferences (029, docs/preferences.md): before it sends a row with a category, whether a subscriber of the address opted
-- out of it on the row's channel. Read only: the app writes preferences, the admin tool categories and their defaults.
GRANT SELECT ([id], [external_id]) ON [$(Schema)].[subscriber] TO [notifications_consumer];
GRANT SELECT ON [$(Schema)].[category] TO [notifications_consumer];
GRANT SELECT ON [$(Schema)].[category_default] TO [notifications_consumer];
GRANT SELECT ON [$(Schema)].[preference] TO [notifications_consumer];
GRANT UPDATE ([dead_at], [dead_reason]) ON [$(Schema)].[contact_point] TO [notifications_consumer];
-- Attached files: read to send, deleted by the retention cleanup with their notification's records.
GRANT SELECT, DELETE ON [$(Schema)].[attachment] TO [notifications_consumer];
-- A sent notification's later outcomes (037) go with its delivery-log row in the retention cleanup.
GRANT SELECT, DELETE ON [$(Schema)].[notification_outcome] TO [notifications_consumer];
-- The live channel (033, docs/live.md) writes a row's pending notification for the gateway, expiring a subscriber's oldest
-- past the cap; the retention cleanup removes expired ones.
GRANT SELECT, INSERT, DELETE ON [$(Schema)].[live_pending] TO [notifications_consumer];
GRANT UPDATE ON [$(Schema)].[live_pending] ([expires_at]) TO [notifications_consumer];
-- A live row to a topic is one broadcast row (042), its topic looked up by name; the retention cleanup removes expired ones
-- (their receipts with them).
GRANT SELECT, INSERT, DELETE ON [$(Schema)].[live_broadcast] TO [notifications_consumer];
GRANT SELECT ON [$(Schema)].[topic] ([id], [name]) TO [notifications_consumer];
-- A notification's story (039): each failed attempt is recorded on the retry path; the retention cleanup deletes them.
GRANT SELECT, INSERT, DELETE ON [$(Schema)].[delivery_attempt] TO [notifications_consumer];
GO
-- The admin tool: status and purge, the delivery window, release and cleanup, dead-letter records, the catalogues.
GRANT SELECT, DELETE ON [$(Schema)].[outbox] TO [notifications_admin];
GRANT SELECT, DELETE ON [$(Schema)].[delivery_log] TO [notifications_admin];
GRANT SELECT, DELETE ON [$(Schema)].[delivery_attempt] TO [notifications_admin];
GRANT SELECT, DELETE ON [$(Schema)].[dead_letter] TO [notifications_admin];
GRANT SELECT, DELETE ON [$(Schema)].[idempotency_key] TO [notifications_admin];
GRANT SELECT, DELETE ON [$(Schema)].[attachment] TO [notifications_admin];
GRANT SELECT, UPDATE ON [$(Schema)].[retention] TO [notifications_admin];
GRANT SELECT, INSERT, UPDATE ON [$(Schema)].[suppression] TO [notifications_admin];
GRANT SELECT, INSERT ON [$(Schema)].[template] TO [notifications_admin];
GRANT SELECT, INSERT, UPDATE ON [$(Schema)].[webhook_endpoint] TO [notifications_admin];
GRANT SELECT, INSERT, DELETE ON [$(Schema)].[webhook_event_subscription] TO [notifications_admin];
GRANT SELECT, DELETE ON [$(Schema)].[outcome_event] TO [notifications_admin];
-- The audience registry: read (subscribers show, topics list), categories and their defaults put, operators' edits.
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[subscriber] TO [notifications_admin];
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[contact_point] TO [notifications_admin];
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[topic] TO [notifications_admin];
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[subscription] TO [notifications_admin];
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[category] TO [notifications_admin];
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[category_default] TO [notifications_admin];
GRANT SELECT, INSERT, UPDATE, DELETE ON [$(Schema)].[preference] TO [notifications_admin];
-- Fan-out jobs and their deliveries: admin show, and the retention cleanup's deletes.
GRANT SELECT, DELETE ON [$(Schema)].[fanout_job] TO [notifications_admin];
GRANT SELECT, DELETE ON [$(Schema)].[audience_delivery] TO [notifications_admin];
GRANT SELECT, DELETE ON [$(Schema)].[live_pending] TO [notifications_admin];
GRANT SELECT, DELETE ON [$(Schema)].[live_broadcast] TO [notifications_admin];
GRANT SELECT, DELETE ON [$(Schema)].[live_broadcast_receipt] TO [notifications_admin];
-- The console's operations (036, docs/console.md): a notification's story reads its rejection; bulk jobs.
GRANT SELECT ON [$(Schema)].[rejected] TO [notifications_admin];
GRANT SELECT, INSERT, UPDATE ON [$(Schema)].[admin_job] TO [notifications_admin];
-- The overview reads the fleet's rate limits (slowed down or not), never changes them.
GRANT SELECT ON [$(Schema)].[rate_limit] TO [notifications_admin];
-- A notification's story shows its later outcome (037, docs/bounces.md); the cleanup removes it with the delivery log.
GRANT SELECT, DELETE ON [$(Schema)].[notification_outcome] TO [notifications_admin];
GO
-- The unsubscribe process (the public page): the suppression store's add (MERGE on address, matched on removed_at and
-- scope), nothing else; it reads no address but the one it writes. (INSERT has no column list in SQL Server.)
GRANT INSERT ON [$(Schema)].[suppression] TO [notifications_unsubscribe];
GRANT SELECT ([address], [scope], [removed_at]) ON [$(Schema)].[suppression] TO [notifications_unsubscribe];
GRANT UPDATE ([reason], [scope], [detail], [since], [changed_at], [removed_at]) ON [$(Schema)].[suppression] TO [notifications_unsubscribe];
-- A link of a mail with a category opts the address's subscribers out of it (repeatable/30_opt_out_by_link.sql): the
-- procedure, not the registry's tables (ownership chaining).
GRANT EXECUTE ON [$(Schema)].[opt_out_by_link] TO [notifications_unsubscribe];
GO
-- The gateway (Gateway/, issue 30): a subscriber's pending live notifications, read on connect and deleted by the ack;
-- at most once, a row is marked sent before it goes out; an expired one is marked reported (041) by the expiry sweep.
GRANT SELECT, DELETE ON [$(Schema)].[live_pending] TO [notifications_gateway];
GRANT UPDATE ON [$(Schema)].[live_pending] ([sent_at], [expiry_reported_at]) TO [notifications_gateway];
-- A broadcast to a topic (042): read with the topic's subscribers and their live preferences; a subscriber's ack, or at
-- most once its mark, is its receipt.
GRANT SELECT ON [$(Schema)].[live_broadcast] TO [notifications_gateway];
GRANT SELECT, INSERT ON [$(Schema)].[live_broadcast_receipt] TO [notifications_gateway];
GRANT UPDATE ON [$(Schema)].[live_broadcast_receipt] ([sent_at], [acked_at]) TO [notifications_gateway];
GRANT SELECT ON [$(Schema)].[subscriber] ([id], [external_id]) TO [notifications_gateway];
GRANT SELECT ON [$(Schema)].[subscription] ([topic_id], [subscriber_id], [created_at]) TO [notifications_gateway];
GRANT SELECT ON [$(Schema)].[category] TO [notifications_gateway];
GRANT SELECT ON [$(Schema)].[category_default] TO [notifications_gateway];
GRANT SELECT ON [$(Schema)].[preference] TO [notifications_gateway];
-- An ack and an expiry are outcome events (notification.acked, .expired; docs/outcome-events.md), in their transaction.
GRANT INSERT ON [$(Schema)].[outbox] TO [notifications_gateway];
GRANT SELECT ON [$(Schema)].[outbox] ([id]) TO [notifications_gateway];
GRANT SELECT, INSERT ON [$(Schema)].[outcome_event] TO [notifications_gateway];
GRANT SELECT ON [$(Schema)].[webhook_event_subscription] TO [notifications_gateway];
GRANT SELECT ON [$(Schema)].[webhook_endpoint] ([name], [disabled_at]) TO [notifications_gateway];
GO
-- The bounce receiver (Bounces/, issue 32, docs/bounces.md): whether the delivery log knows the reported notification,
-- the outcomes (recorded once, an address's deferrals counted), and the suppression store's add, as the unsubscribe
-- process has it. Nothing else: it takes mail from the internet.
GRANT SELECT ([notification_id]) ON [$(Schema)].[delivery_log] TO [notifications_bounces];
GRANT SELECT, INSERT ON [$(Schema)].[notification_outcome] TO [notifications_bounces];
GRANT INSERT ON [$(Schema)].[suppression] TO [notifications_bounces];
GRANT SELECT ([address], [scope], [removed_at]) ON [$(Schema)].[suppression] TO [notifications_bounces];
GRANT UPDATE ([reason], [scope], [detail], [since], [changed_at], [removed_at]) ON [$(Schema)].[suppression] TO [notifications_bounces];
-- A bounce or complaint recorded is an outcome event for the endpoints subscribed to it (038, docs/outcome-events.md).
GRANT INSERT ON [$(Schema)].[outbox] TO [notifications_bounces];
GRANT SELECT ON [$(Schema)].[outbox] ([id]) TO [notifications_bounces];
GRANT SELECT, INSERT ON [$(Schema)].[outcome_event] TO [notifications_bounces];
GRANT SELECT ON [$(Schema)].[webhook_event_subscription] TO [notifications_bounces];
GRANT SELECT ON [$(Schema)].[webhook_endpoint] ([name], [disabled_at]) TO [notifications_bounces];
GO
