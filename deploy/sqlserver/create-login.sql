-- One login of a database role of db/sqlserver/020_roles.sql, made or given its new password (idempotent;
-- docs/security.md, "Logins on SQL Server"). Run once per role by deploy/sqlserver/create-logins, which prepends
--   :setvar Role producer   :setvar Password <secret>   :setvar Database notifications
-- and pipes the script into sqlcmd on standard input: the password is never on a command line.
IF SUSER_ID(N'notifications_$(Role)_login') IS NULL
    CREATE LOGIN [notifications_$(Role)_login] WITH PASSWORD = N'$(Password)', CHECK_POLICY = ON, DEFAULT_DATABASE = [$(Database)];
ELSE
    ALTER LOGIN [notifications_$(Role)_login] WITH PASSWORD = N'$(Password)';
GO
USE [$(Database)];
GO
IF DATABASE_PRINCIPAL_ID(N'notifications_$(Role)_login') IS NULL
    CREATE USER [notifications_$(Role)_login] FOR LOGIN [notifications_$(Role)_login];
ALTER ROLE [notifications_$(Role)] ADD MEMBER [notifications_$(Role)_login];
GO
