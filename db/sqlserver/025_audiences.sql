-- The audience registry (idempotent; docs/audiences.md): who a notification may be for, instead of one address.
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 025_audiences.sql
-- The same tables as db/postgres/025_audiences.sql (read its header for what each holds). Ids, topic and category names
-- and contact addresses compare as bytes (Latin1_General_100_BIN2): push tokens and the apps' user ids are
-- case-sensitive, and the database's default collation would fold them. A nonclustered unique key on
-- (subscriber_id, channel, address) is at most 8 + 8 + 640 bytes, under the 900-byte limit either way.
IF OBJECT_ID(N'[$(Schema)].[subscriber]', N'U') IS NULL
CREATE TABLE [$(Schema)].[subscriber] (
    id          bigint IDENTITY(1,1) NOT NULL CONSTRAINT PK_subscriber PRIMARY KEY,
    external_id varchar(128) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT UQ_subscriber_external_id UNIQUE
        CONSTRAINT CK_subscriber_external_id CHECK (external_id LIKE '[A-Za-z0-9]%' COLLATE Latin1_General_BIN2
                                                   AND external_id NOT LIKE '%[^A-Za-z0-9._:@+=-]%' COLLATE Latin1_General_BIN2),
    locale      nvarchar(35)      NOT NULL CONSTRAINT DF_subscriber_locale DEFAULT (N'en'),
    time_zone   nvarchar(64)      NULL,
    created_at  datetimeoffset(3) NOT NULL CONSTRAINT DF_subscriber_created_at DEFAULT (SYSUTCDATETIME()),
    updated_at  datetimeoffset(3) NOT NULL CONSTRAINT DF_subscriber_updated_at DEFAULT (SYSUTCDATETIME())
);
GO
IF OBJECT_ID(N'[$(Schema)].[contact_point]', N'U') IS NULL
CREATE TABLE [$(Schema)].[contact_point] (
    id            bigint IDENTITY(1,1) NOT NULL CONSTRAINT PK_contact_point PRIMARY KEY,
    subscriber_id bigint            NOT NULL CONSTRAINT FK_contact_point_subscriber REFERENCES [$(Schema)].[subscriber] (id) ON DELETE CASCADE,
    channel       varchar(8)        NOT NULL CONSTRAINT CK_contact_point_channel CHECK (channel IN ('email', 'push')),
    address       nvarchar(320) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT CK_contact_point_address CHECK (address <> N''),
    app_id        nvarchar(255)     NULL,
    last_seen_at  datetimeoffset(3) NULL,
    created_at    datetimeoffset(3) NOT NULL CONSTRAINT DF_contact_point_created_at DEFAULT (SYSUTCDATETIME()),
    dead_at       datetimeoffset(3) NULL,
    dead_reason   nvarchar(1000)    NULL,
    CONSTRAINT UQ_contact_point UNIQUE NONCLUSTERED (subscriber_id, channel, address)
);
GO
-- The consumer marks a token dead by its address (the suppression key).
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_contact_point_address' AND object_id = OBJECT_ID(N'[$(Schema)].[contact_point]'))
CREATE INDEX IX_contact_point_address ON [$(Schema)].[contact_point] (channel, address);
GO
IF OBJECT_ID(N'[$(Schema)].[topic]', N'U') IS NULL
CREATE TABLE [$(Schema)].[topic] (
    id         bigint IDENTITY(1,1) NOT NULL CONSTRAINT PK_topic PRIMARY KEY,
    name       varchar(128) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT UQ_topic_name UNIQUE
        CONSTRAINT CK_topic_name CHECK (name LIKE '[a-z0-9]%' COLLATE Latin1_General_BIN2 AND name NOT LIKE '%[^a-z0-9._-]%' COLLATE Latin1_General_BIN2),
    created_at datetimeoffset(3) NOT NULL CONSTRAINT DF_topic_created_at DEFAULT (SYSUTCDATETIME())
);
GO
-- Its primary key (topic_id, subscriber_id) is the fan-out's keyset order.
IF OBJECT_ID(N'[$(Schema)].[subscription]', N'U') IS NULL
CREATE TABLE [$(Schema)].[subscription] (
    topic_id      bigint            NOT NULL CONSTRAINT FK_subscription_topic REFERENCES [$(Schema)].[topic] (id) ON DELETE CASCADE,
    subscriber_id bigint            NOT NULL CONSTRAINT FK_subscription_subscriber REFERENCES [$(Schema)].[subscriber] (id) ON DELETE CASCADE,
    created_at    datetimeoffset(3) NOT NULL CONSTRAINT DF_subscription_created_at DEFAULT (SYSUTCDATETIME()),
    CONSTRAINT PK_subscription PRIMARY KEY (topic_id, subscriber_id)
);
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'IX_subscription_subscriber' AND object_id = OBJECT_ID(N'[$(Schema)].[subscription]'))
CREATE INDEX IX_subscription_subscriber ON [$(Schema)].[subscription] (subscriber_id);
GO
IF OBJECT_ID(N'[$(Schema)].[category]', N'U') IS NULL
CREATE TABLE [$(Schema)].[category] (
    name        varchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT PK_category PRIMARY KEY
        CONSTRAINT CK_category_name CHECK (name LIKE '[a-z0-9]%' COLLATE Latin1_General_BIN2 AND name NOT LIKE '%[^a-z0-9._-]%' COLLATE Latin1_General_BIN2),
    critical    bit               NOT NULL CONSTRAINT DF_category_critical DEFAULT (0),
    description nvarchar(200)     NULL,
    created_at  datetimeoffset(3) NOT NULL CONSTRAINT DF_category_created_at DEFAULT (SYSUTCDATETIME()),
    updated_at  datetimeoffset(3) NOT NULL CONSTRAINT DF_category_updated_at DEFAULT (SYSUTCDATETIME())
);
GO
IF OBJECT_ID(N'[$(Schema)].[category_default]', N'U') IS NULL
CREATE TABLE [$(Schema)].[category_default] (
    category varchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL
        CONSTRAINT FK_category_default_category REFERENCES [$(Schema)].[category] (name) ON DELETE CASCADE,
    channel  varchar(8) NOT NULL CONSTRAINT CK_category_default_channel CHECK (channel IN ('email', 'push')),
    enabled  bit        NOT NULL,
    CONSTRAINT PK_category_default PRIMARY KEY (category, channel)
);
GO
IF OBJECT_ID(N'[$(Schema)].[preference]', N'U') IS NULL
CREATE TABLE [$(Schema)].[preference] (
    subscriber_id bigint            NOT NULL CONSTRAINT FK_preference_subscriber REFERENCES [$(Schema)].[subscriber] (id) ON DELETE CASCADE,
    category      varchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL
        CONSTRAINT FK_preference_category REFERENCES [$(Schema)].[category] (name) ON DELETE CASCADE,
    channel       varchar(8)        NOT NULL CONSTRAINT CK_preference_channel CHECK (channel IN ('email', 'push')),
    enabled       bit               NOT NULL,
    updated_at    datetimeoffset(3) NOT NULL CONSTRAINT DF_preference_updated_at DEFAULT (SYSUTCDATETIME()),
    CONSTRAINT PK_preference PRIMARY KEY (subscriber_id, category, channel)
);
GO
