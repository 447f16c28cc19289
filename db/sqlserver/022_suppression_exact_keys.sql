-- Suppression keys compared exactly (re-runnable; docs/suppression.md, "Keys").
-- Apply with: notifications-admin migrate (docs/database.md), or sqlcmd -v Schema=notifications -i 022_suppression_exact_keys.sql
-- A key is compared as its channel defines it, and made so by whoever writes or looks it up (Shared/Data/SuppressionKeys):
-- an email address or domain is lower-cased; a push recipient ('fcm:<token>', 'apns:<token>') is kept exactly as the
-- provider gave it, since FCM and APNs tokens are case-sensitive (two tokens that differ only in case are two devices).
-- The column itself must fold nothing: a database's default collation (SQL_Latin1_General_CP1_CI_AS and the like) is
-- case-insensitive, so it gets a binary one. Its primary key depends on it: dropped and made again, in one transaction.
-- Push entries written before this lower-cased their token: they no longer match a token with capitals, so such a device
-- gets one more send, and its UNREGISTERED answer records the token exactly.
SET XACT_ABORT ON;
GO
IF EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'[$(Schema)].[suppression]') AND name = N'address'
           AND collation_name <> N'Latin1_General_100_BIN2')
BEGIN
    BEGIN TRANSACTION;
    ALTER TABLE [$(Schema)].[suppression] DROP CONSTRAINT PK_suppression;
    ALTER TABLE [$(Schema)].[suppression] ALTER COLUMN address nvarchar(640) COLLATE Latin1_General_100_BIN2 NOT NULL;
    ALTER TABLE [$(Schema)].[suppression] ADD CONSTRAINT PK_suppression PRIMARY KEY NONCLUSTERED (address);
    COMMIT TRANSACTION;
END
GO
