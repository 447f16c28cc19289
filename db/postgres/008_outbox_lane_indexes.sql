-- Claim indexes for the priority lanes and scheduled sends (idempotent). The producer claims per priority
-- (urgent, then normal, then bulk), each priority in two steps, each on its own partial index:
--   outbox_claim      rows to send now (not_before IS NULL), oldest first: (priority, id)
--   outbox_scheduled  rows with a not_before, earliest first: (priority, not_before, id); the claim reads
--                     only the due range (not_before <= now()), so rows scheduled for later cost nothing
-- CONCURRENTLY: building them on a full outbox does not block the business apps' inserts (psql runs each
-- statement in its own transaction, as CONCURRENTLY requires). A build that failed leaves an INVALID index
-- that IF NOT EXISTS would keep: drop it and run this file again.
CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_claim
    ON :"schema".outbox (priority, id) WHERE not_before IS NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_scheduled
    ON :"schema".outbox (priority, not_before, id) WHERE not_before IS NOT NULL;
