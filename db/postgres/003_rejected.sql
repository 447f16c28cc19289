-- Rows the producer could not publish at all (e.g. larger than the broker accepts), kept with the reason.
CREATE TABLE IF NOT EXISTS :"schema".rejected (
    id          bigint        PRIMARY KEY,
    recipient   varchar(320)  NULL,
    subject     varchar(998)  NULL,
    body        text          NULL,
    created_at  timestamptz   NULL,
    reason      varchar(1000) NOT NULL,
    rejected_at timestamptz   NOT NULL DEFAULT now()
);
