\set ON_ERROR_STOP 1
-- The claim as one statement a lane (Shared/Data/Postgres/PostgresOutboxStore.ClaimStatement, since 2026-12-01), on the
-- same outbox as claim-plan-1m-scheduled.sql: 1,000,000 bulk rows scheduled for tomorrow, 50,000 normal rows to send now,
-- 10 urgent. Run on a scratch or benchmark database (it empties the outbox):
--   psql -h 127.0.0.1 -U notifications -d notifications_bench -f claim-plan-1m-scheduled-one-statement.sql
\ir claim-plan-1m-outbox.sql
PREPARE standard(int) AS
DELETE FROM notifications.outbox
WHERE id IN (SELECT id FROM (
    SELECT id FROM (SELECT id FROM notifications.outbox WHERE priority = 'normal' AND not_before IS NOT NULL AND not_before <= now() ORDER BY not_before, id LIMIT $1 FOR UPDATE SKIP LOCKED) AS r
    UNION ALL
    SELECT id FROM (SELECT id FROM notifications.outbox WHERE priority = 'normal' AND not_before IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED) AS r
    UNION ALL
    SELECT id FROM (SELECT id FROM notifications.outbox WHERE priority = 'bulk' AND not_before IS NOT NULL AND not_before <= now() ORDER BY not_before, id LIMIT $1 FOR UPDATE SKIP LOCKED) AS r
    UNION ALL
    SELECT id FROM (SELECT id FROM notifications.outbox WHERE priority = 'bulk' AND not_before IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED) AS r) AS claimable LIMIT $1)
RETURNING id, priority, not_before;
PREPARE urgent(int) AS
DELETE FROM notifications.outbox
WHERE id IN (SELECT id FROM (
    SELECT id FROM (SELECT id FROM notifications.outbox WHERE priority = 'urgent' AND not_before IS NOT NULL AND not_before <= now() ORDER BY not_before, id LIMIT $1 FOR UPDATE SKIP LOCKED) AS r
    UNION ALL
    SELECT id FROM (SELECT id FROM notifications.outbox WHERE priority = 'urgent' AND not_before IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED) AS r) AS claimable LIMIT $1)
RETURNING id, priority, not_before;
BEGIN;
\echo '--- standard lane: 1,000 of the 50,000 normal rows; the bulk ranges are not read'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING ON) EXECUTE standard(1000);
\echo '--- urgent lane: the 10 urgent rows'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING ON) EXECUTE urgent(100);
\echo '--- urgent lane, an empty poll'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING ON) EXECUTE urgent(100);
DELETE FROM notifications.outbox WHERE priority = 'normal';
\echo '--- standard lane, no normal rows left: the four ranges, the million for tomorrow in none of them'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING ON) EXECUTE standard(1000);
ROLLBACK;
TRUNCATE notifications.outbox;
