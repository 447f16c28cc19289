-- Delivery log: one row per notification id, written by the consumer. The primary key is what makes
-- consumers idempotent: a redelivered message finds its row and is not sent again.
CREATE TABLE IF NOT EXISTS :"schema".delivery_log (
    notification_id bigint       PRIMARY KEY,
    status          varchar(16)  NOT NULL,   -- 'sending' (AtMostOnce mark before send) | 'sent'
    updated_at      timestamptz  NOT NULL DEFAULT now()
);
