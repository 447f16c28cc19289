using Microsoft.EntityFrameworkCore.Infrastructure;
using Notifications.Client;
using Notifications.Client.EntityFrameworkCore;

// EF Core's own convention for options extensions (UseNpgsql, UseLazyLoadingProxies): found wherever the context is configured.
namespace Microsoft.EntityFrameworkCore;

/// <summary>Turns on the EF Core outbox: <see cref="DbContextNotifications.AddNotification"/> joins SaveChangesAsync.</summary>
public static class NotificationsDbContextOptionsExtensions
{
    /// <summary>
    /// Lets the context take notifications (<see cref="DbContextNotifications.AddNotification"/>) that its next
    /// <c>SaveChangesAsync</c> inserts into the outbox in <paramref name="schema"/>, in the transaction that saves the changes.
    /// The dialect follows the connection: reference <c>Notifications.Client.PostgreSql</c> or <c>Notifications.Client.SqlServer</c>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="schema"/> is not a plain identifier.</exception>
    public static DbContextOptionsBuilder UseNotificationsOutbox(this DbContextOptionsBuilder optionsBuilder, string schema = OutboxSchemaName.Default)
    {
        ArgumentNullException.ThrowIfNull(optionsBuilder);
        var extension = new NotificationsOutboxOptionsExtension(OutboxSchemaName.Checked(schema, nameof(schema)));
        ((IDbContextOptionsBuilderInfrastructure)optionsBuilder).AddOrUpdateExtension(extension);
        return optionsBuilder;
    }

    /// <inheritdoc cref="UseNotificationsOutbox(DbContextOptionsBuilder, string)"/>
    public static DbContextOptionsBuilder<TContext> UseNotificationsOutbox<TContext>(this DbContextOptionsBuilder<TContext> optionsBuilder, string schema = OutboxSchemaName.Default)
        where TContext : DbContext =>
        (DbContextOptionsBuilder<TContext>)UseNotificationsOutbox((DbContextOptionsBuilder)optionsBuilder, schema);
}
