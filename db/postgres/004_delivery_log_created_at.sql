-- The outbox row's created_at, copied into the delivery log when the send is recorded: the delivery SLO
-- (share delivered within 1 s / 2 min of the insert) is computed from updated_at - created_at, both
-- taken by the database's clock. NULL for rows recorded before this column existed.
ALTER TABLE :"schema".delivery_log ADD COLUMN IF NOT EXISTS created_at timestamptz NULL;
