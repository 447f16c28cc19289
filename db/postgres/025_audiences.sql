-- The audience registry (idempotent; docs/audiences.md): who a notification may be for, instead of one address.
-- Apply with: notifications-admin migrate (docs/database.md), or psql -v schema=notifications -f 025_audiences.sql
-- Written by business apps through the client package (ISubscriberRegistry, in their own transaction), read and edited
-- by scripts/admin; the fan-out stage (docs/audiences.md, "Fan-out") will read it. The shapes are AudienceRules'
-- (Shared/Contract/AudienceRules.cs), checked by the client and again here.
--   subscriber:       a person, by the app's own user id (external_id); locale and an optional IANA time zone
--   contact_point:    every address of a person: channel 'email' (a lower-case address) or 'push' ('fcm:<token>' or
--                     'apns:<token>', the push channel's recipient, compared as bytes: tokens are case-sensitive); app_id
--                     and last_seen_at for devices. dead_at/dead_reason: the provider said the token is gone (written by
--                     the consumer with its suppression entry); a dead contact point is never fanned out to again
--   topic:            a named audience (lower-case letters, digits, '.', '_', '-')
--   subscription:     subscriber to topic; its primary key (topic_id, subscriber_id) is the fan-out's keyset order
--   category:         what a notification is about ('security', 'orders', 'marketing'); a critical one cannot be opted out
--   category_default: per category and channel, whether a subscriber without a preference gets it (no row: yes)
--   preference:       per subscriber, category and channel, the subscriber's own choice
CREATE TABLE IF NOT EXISTS :"schema".subscriber (
    id          bigint       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    external_id varchar(128) COLLATE "C" NOT NULL
        CONSTRAINT subscriber_external_id_shape CHECK (external_id ~ '^[A-Za-z0-9][A-Za-z0-9._:@+=-]{0,127}$'),
    locale      varchar(35)  NOT NULL DEFAULT 'en',
    time_zone   varchar(64)  NULL,
    created_at  timestamptz  NOT NULL DEFAULT now(),
    updated_at  timestamptz  NOT NULL DEFAULT now(),
    CONSTRAINT subscriber_external_id_unique UNIQUE (external_id)
);
CREATE TABLE IF NOT EXISTS :"schema".contact_point (
    id            bigint        GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscriber_id bigint        NOT NULL REFERENCES :"schema".subscriber (id) ON DELETE CASCADE,
    channel       varchar(8)    NOT NULL CONSTRAINT contact_point_channel_known CHECK (channel IN ('email', 'push')),
    address       varchar(320)  COLLATE "C" NOT NULL CONSTRAINT contact_point_address_not_empty CHECK (address <> ''),
    app_id        varchar(255)  NULL,
    last_seen_at  timestamptz   NULL,
    created_at    timestamptz   NOT NULL DEFAULT now(),
    dead_at       timestamptz   NULL,
    dead_reason   varchar(1000) NULL,
    CONSTRAINT contact_point_unique UNIQUE (subscriber_id, channel, address)
);
-- The consumer marks a token dead by its address (the suppression key).
CREATE INDEX IF NOT EXISTS contact_point_address ON :"schema".contact_point (channel, address);
CREATE TABLE IF NOT EXISTS :"schema".topic (
    id         bigint       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       varchar(128) COLLATE "C" NOT NULL
        CONSTRAINT topic_name_shape CHECK (name ~ '^[a-z0-9][a-z0-9._-]{0,127}$'),
    created_at timestamptz  NOT NULL DEFAULT now(),
    CONSTRAINT topic_name_unique UNIQUE (name)
);
CREATE TABLE IF NOT EXISTS :"schema".subscription (
    topic_id      bigint      NOT NULL REFERENCES :"schema".topic (id) ON DELETE CASCADE,
    subscriber_id bigint      NOT NULL REFERENCES :"schema".subscriber (id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (topic_id, subscriber_id)
);
-- A subscriber's topics (admin subscribers show; the cascade of a deleted subscriber).
CREATE INDEX IF NOT EXISTS subscription_subscriber ON :"schema".subscription (subscriber_id);
CREATE TABLE IF NOT EXISTS :"schema".category (
    name        varchar(64)  COLLATE "C" NOT NULL PRIMARY KEY
        CONSTRAINT category_name_shape CHECK (name ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
    critical    boolean      NOT NULL DEFAULT false,
    description varchar(200) NULL,
    created_at  timestamptz  NOT NULL DEFAULT now(),
    updated_at  timestamptz  NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS :"schema".category_default (
    category varchar(64) COLLATE "C" NOT NULL REFERENCES :"schema".category (name) ON DELETE CASCADE,
    channel  varchar(8)  NOT NULL CONSTRAINT category_default_channel_known CHECK (channel IN ('email', 'push')),
    enabled  boolean     NOT NULL,
    PRIMARY KEY (category, channel)
);
CREATE TABLE IF NOT EXISTS :"schema".preference (
    subscriber_id bigint      NOT NULL REFERENCES :"schema".subscriber (id) ON DELETE CASCADE,
    category      varchar(64) COLLATE "C" NOT NULL REFERENCES :"schema".category (name) ON DELETE CASCADE,
    channel       varchar(8)  NOT NULL CONSTRAINT preference_channel_known CHECK (channel IN ('email', 'push')),
    enabled       boolean     NOT NULL,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subscriber_id, category, channel)
);
