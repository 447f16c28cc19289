-- Optional per-row priority lane and earliest send time (idempotent).
--   priority:   'urgent' | 'normal' | 'bulk' (default 'normal'). Urgent rows are claimed first and travel
--               in their own lane, so a bulk backlog neither delays nor starves them.
--   not_before: NULL = send now; otherwise nothing is sent before this instant (claim-time precision).
-- Adding a column with a constant default is a catalog-only change on PostgreSQL 11+: no table rewrite.
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS priority varchar(6) NOT NULL DEFAULT 'normal'
    CONSTRAINT outbox_priority_known CHECK (priority IN ('urgent', 'normal', 'bulk'));
ALTER TABLE :"schema".outbox ADD COLUMN IF NOT EXISTS not_before timestamptz NULL;
