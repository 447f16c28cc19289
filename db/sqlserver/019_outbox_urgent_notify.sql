-- Nothing to change on SQL Server (kept so both dialects have the same numbers; docs/outbox.md, "The urgent wake").
-- Apply with: sqlcmd -v Schema=notifications -i 019_outbox_urgent_notify.sql
-- PostgreSQL's 019 adds a trigger that NOTIFYs the producers of an urgent row. SQL Server has no LISTEN/NOTIFY:
-- its counterparts, Service Broker queues and query notifications (SqlDependency), need the broker enabled on the
-- database, a queue and service per listener, and permissions the outbox design does not ask of a DBA. The urgent
-- lane on SQL Server keeps its adaptive poll (Producer:UrgentPollInterval doubling up to UrgentMaxPollInterval).
PRINT N'019_outbox_urgent_notify: nothing to change on SQL Server';
GO
