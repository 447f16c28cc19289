-- The configured rate beside each rate limit's row (re-runnable; docs/rate-limits.md, docs/console.md): every lease writes
-- the interval its consumer is configured with, in the statement it runs anyway, so `admin status` and the console's
-- overview show the rate in force (the last lease's) without reading any consumer's configuration.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 040_rate_limit_interval.sql
--   rate_limit.interval_us  the configured interval between sends, in microseconds (1000000 / rate per second); NULL until
--                           the first lease of a consumer of this version
ALTER TABLE :"schema".rate_limit ADD COLUMN IF NOT EXISTS interval_us bigint NULL;
