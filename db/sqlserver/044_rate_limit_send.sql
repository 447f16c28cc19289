-- The send window of each rate limit (idempotent; issue 27, item 19, docs/rate-limits.md#the-send-window): one row per send
-- under a limit, from the moment the fleet let it start until it ended, by the database's clock in microseconds since the
-- Unix epoch. A send may start only while fewer than the window's size (the rate × (1 s + RateLimits:SlotTolerance)) of
-- the limit's rows are in flight or ended within the last second, counted under a lock of the window's own, so no second at
-- the receiver holds more than that, however the sends' durations vary. The consumers delete a limit's rows older than a second as they go: the table stays small.
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 044_rate_limit_send.sql
--   name        the limit ('relay', 'domain:gmail.com'), as in rate_limit
--   started_us  when the send was let in
--   ends_by_us  until when it counts as in flight if its end is never recorded (its process died): started + the send timeout
--   ended_us    when its end was recorded (after the server's reply); NULL while in flight
IF OBJECT_ID(N'[$(Schema)].[rate_limit_send]', N'U') IS NULL
CREATE TABLE [$(Schema)].[rate_limit_send] (
    id         bigint       IDENTITY(1, 1) NOT NULL CONSTRAINT PK_rate_limit_send PRIMARY KEY,
    name       varchar(300) NOT NULL,
    started_us bigint       NOT NULL,
    ends_by_us bigint       NOT NULL,
    ended_us   bigint       NULL
);
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_rate_limit_send_name' AND object_id = OBJECT_ID(N'[$(Schema)].[rate_limit_send]'))
CREATE INDEX IX_rate_limit_send_name ON [$(Schema)].[rate_limit_send] (name, id);
GO
