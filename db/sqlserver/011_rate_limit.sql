-- Fleet-wide send rates (idempotent): one row per limit ('relay', 'domain:gmail.com'), shared by every
-- consumer process. GCRA: tat_us is the theoretical arrival time of the next send, in microseconds since
-- the Unix epoch by the database's clock (so the consumers' clocks never matter). A consumer leases n sends
-- at a time: tat_us moves n intervals on, and the consumer paces those n sends itself.
-- A "slow down" reply (421, 451 4.7.x, 452) multiplies the interval by slow_factor until slow_until_us.
IF OBJECT_ID(N'[$(Schema)].[rate_limit]', N'U') IS NULL
CREATE TABLE [$(Schema)].[rate_limit] (
    name            varchar(300) NOT NULL CONSTRAINT PK_rate_limit PRIMARY KEY,
    tat_us          bigint       NOT NULL,
    slow_factor     float        NOT NULL CONSTRAINT DF_rate_limit_slow_factor DEFAULT (1),
    slow_changed_us bigint       NOT NULL CONSTRAINT DF_rate_limit_slow_changed DEFAULT (0),
    slow_until_us   bigint       NOT NULL CONSTRAINT DF_rate_limit_slow_until DEFAULT (0)
);
GO
