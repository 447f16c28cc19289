-- scripts/console-bench's volume (docs/console.md, "At volume"): run as the schema owner on its own database, once.
--   delivery_log   10,000,000 rows, ids 1..10M ('sent', 1 in 100 'suppressed'), one a millisecond back from now
--   dead_letter     1,000,000 rows, ids 10M+1..11M: 40 % in one group (an address in the reason), 30 % in ten more,
--                   30 % spread over 17,576 groups (a three-letter code in the reason), so group pages have somewhere to go
--   outbox            100,000 waiting rows; idempotency_key 1,000,000 keys
--   subscriber 100,000, fanout_job 1,000, audience_delivery 1,000,000 (10 a subscriber)
--   contact_point 100,000 (an email address a subscriber); topic 1,000: t1 with every subscriber, the others 10 each
--   live_pending 100,000 (10 a subscriber of the first 10,000); rate_limit 50 rows (the relay, 49 domains, 7 slowed down)
\timing on
SET search_path = :"schema";
SET synchronous_commit = off;
SET maintenance_work_mem = '512MB';
INSERT INTO delivery_log (notification_id, status, attempts, updated_at)
SELECT g, CASE WHEN g % 100 = 0 THEN 'suppressed' ELSE 'sent' END, 1 + g % 3, now() - (10000000 - g) * interval '1 millisecond'
FROM generate_series(1, 10000000) AS g;
INSERT INTO dead_letter (letter_key, notification_id, reason, reason_class, attempts, dead_lettered_at)
SELECT gen_random_uuid(), 10000000 + g, r.reason, r.class, 5, now() - (1000000 - g) * interval '10 millisecond'
FROM generate_series(1, 1000000) AS g
CROSS JOIN LATERAL (SELECT CASE
    WHEN g % 10 < 4 THEN format('smtp permanent failure 550: 5.1.1 <user%s@example.com>: Recipient address rejected', g)
    WHEN g % 10 < 7 THEN format('gave up after 5 attempts: provider %s answered 503 (request %s)', chr(65 + g % 11), g)
    ELSE format('webhook endpoint refused the payload: code %s', chr(65 + g % 26) || chr(65 + (g / 26) % 26) || chr(65 + (g / 676) % 26)) END AS reason,
  CASE
    WHEN g % 10 < 4 THEN 'smtp permanent failure #: #.#.# <<address>>: Recipient address rejected'
    WHEN g % 10 < 7 THEN format('gave up after # attempts: provider %s answered # (request #)', chr(65 + g % 11))
    ELSE format('webhook endpoint refused the payload: code %s', chr(65 + g % 26) || chr(65 + (g / 26) % 26) || chr(65 + (g / 676) % 26)) END AS class) AS r;
INSERT INTO outbox (recipient, subject, body)
SELECT 'user' || g || '@example.com', 'Order ' || g, 'Hello' FROM generate_series(1, 100000) AS g;
INSERT INTO idempotency_key (idempotency_key, notification_id)
SELECT 'order:' || g, g FROM generate_series(1, 1000000) AS g;
INSERT INTO subscriber (external_id) SELECT 'sub-' || g FROM generate_series(1, 100000) AS g;
INSERT INTO fanout_job (id, audience, channels, parent, state, published, finished_at)
SELECT 20000000 + g, 'topic:t' || g, 'email', '{}', 'done', 1000, now() FROM generate_series(1, 1000) AS g;
INSERT INTO audience_delivery (parent_id, subscriber_id, channel, address, outcome)
SELECT 20000000 + 1 + g % 1000, s.id, 'email', s.external_id || '@example.com', 'published'
FROM generate_series(1, 1000000) AS g JOIN subscriber AS s ON s.external_id = 'sub-' || (1 + g % 100000);
UPDATE audience_delivery SET address = replace(address, 'sub-', 'sub') WHERE address LIKE 'sub-%';
INSERT INTO contact_point (subscriber_id, channel, address) SELECT id, 'email', replace(external_id, 'sub-', 'sub') || '@example.com' FROM subscriber;
INSERT INTO topic (name) SELECT 't' || g FROM generate_series(1, 1000) AS g;
INSERT INTO subscription (topic_id, subscriber_id) SELECT t.id, s.id FROM topic AS t JOIN subscriber AS s ON t.name = 't1';
INSERT INTO subscription (topic_id, subscriber_id)
SELECT t.id, s.id FROM topic AS t JOIN subscriber AS s ON s.id % 100 = (substr(t.name, 2)::int % 100) AND s.id <= 1000 WHERE t.name <> 't1';
INSERT INTO live_pending (notification_id, subscriber_id, subject) SELECT 30000000 + g, 'sub-' || (1 + g % 10000), 'live ' || g FROM generate_series(1, 100000) AS g;
INSERT INTO rate_limit (name, tat_us, slow_factor, slow_until_us)
SELECT CASE WHEN g = 1 THEN 'relay' ELSE 'domain:d' || g || '.example' END, 0, CASE WHEN g % 7 = 0 THEN 4 ELSE 1 END,
       CASE WHEN g % 7 = 0 THEN (extract(epoch FROM now() + interval '1 hour') * 1000000)::bigint ELSE 0 END
FROM generate_series(1, 50) AS g;
VACUUM ANALYZE contact_point;
VACUUM ANALYZE subscription;
VACUUM ANALYZE live_pending;
VACUUM ANALYZE delivery_log;
VACUUM ANALYZE dead_letter;
VACUUM ANALYZE outbox;
VACUUM ANALYZE idempotency_key;
VACUUM ANALYZE subscriber;
VACUUM ANALYZE fanout_job;
VACUUM ANALYZE audience_delivery;
