-- The outbox both claim-plan scripts explain their claims on (it empties the outbox first).
TRUNCATE notifications.outbox;
-- 1,000,000 bulk rows scheduled for tomorrow, plus 50,000 rows to send now (normal) and 10 urgent.
INSERT INTO notifications.outbox (recipient, subject, body, priority, not_before)
SELECT 'user' || g || '@example.com', 'Newsletter #' || g, 'Hello', 'bulk', now() + interval '1 day' + g * interval '1 ms'
FROM generate_series(1, 1000000) AS g;
INSERT INTO notifications.outbox (recipient, subject, body)
SELECT 'user' || g || '@example.com', 'Order #' || g, 'Hello' FROM generate_series(1, 50000) AS g;
INSERT INTO notifications.outbox (recipient, subject, body, priority)
SELECT 'user' || g || '@example.com', 'Reset #' || g, 'Hello', 'urgent' FROM generate_series(1, 10) AS g;
VACUUM ANALYZE notifications.outbox;
