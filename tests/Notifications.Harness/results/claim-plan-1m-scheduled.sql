\set ON_ERROR_STOP 1
\ir claim-plan-1m-outbox.sql
SELECT priority, not_before IS NULL AS now, count(*) FROM notifications.outbox GROUP BY 1, 2 ORDER BY 1, 2;
SELECT indexrelname, pg_size_pretty(pg_relation_size(indexrelid)) FROM pg_stat_user_indexes WHERE relname = 'outbox';
PREPARE due(text, int) AS
DELETE FROM notifications.outbox
WHERE id IN (SELECT id FROM notifications.outbox WHERE priority = $1 AND not_before IS NOT NULL AND not_before <= now()
             ORDER BY not_before, id LIMIT $2 FOR UPDATE SKIP LOCKED)
RETURNING id, recipient, subject, body, is_html, created_at, expires_at, traceparent, priority, not_before;
PREPARE fresh(text, int) AS
DELETE FROM notifications.outbox
WHERE id IN (SELECT id FROM notifications.outbox WHERE priority = $1 AND not_before IS NULL
             ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
RETURNING id, recipient, subject, body, is_html, created_at, expires_at, traceparent, priority, not_before;
BEGIN;
\echo '--- standard lane, step 1: due scheduled normal rows (none)'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING ON) EXECUTE due('normal', 1000);
\echo '--- standard lane, step 2: normal rows to send now (1,000 of 50,000)'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING ON) EXECUTE fresh('normal', 1000);
\echo '--- the bulk lane step the 1,000,000 rows for tomorrow are in: due scheduled bulk rows (none due)'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING ON) EXECUTE due('bulk', 1000);
\echo '--- urgent lane, an empty poll: due scheduled urgent rows'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING ON) EXECUTE due('urgent', 100);
\echo '--- urgent lane: urgent rows to send now (10)'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING ON) EXECUTE fresh('urgent', 100);
ROLLBACK;
