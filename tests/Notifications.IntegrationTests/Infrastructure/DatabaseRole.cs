namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>The code paths of db/postgres/repeatable/90_roles.sql: each connects as a login that is a member of its role.</summary>
public enum DatabaseRole
{
    App,
    Producer,
    Consumer,
    Admin,
    Unsubscribe,
    Gateway,
    Bounces,
}
