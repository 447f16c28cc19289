-- Optional W3C traceparent (00-<trace id>-<span id>-<flags>, 55 characters) of the business request that
-- enqueued the row: the producer's publish span takes it as parent, so the delivery joins that trace.
-- NULL when the app has no trace open; a malformed value is ignored by the producer, never an error.
IF COL_LENGTH(N'[$(Schema)].[outbox]', N'traceparent') IS NULL
ALTER TABLE [$(Schema)].[outbox] ADD traceparent varchar(55) NULL;
GO
