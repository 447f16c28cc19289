using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Notifications.Client;

/// <summary>Registers the client in an app's service collection.</summary>
public static class NotificationsClientServiceCollectionExtensions
{
    /// <summary>
    /// Registers <see cref="INotificationOutbox"/> and <see cref="ISubscriberRegistry"/> (singletons) for the provider <paramref name="configure"/> chooses:
    /// <c>options.UsePostgreSql(connectionString)</c> (package <c>Notifications.Client.PostgreSql</c>) or
    /// <c>options.UseSqlServer(connectionString)</c> (<c>Notifications.Client.SqlServer</c>), each also with a factory of the
    /// app's own data source or connections; and <see cref="NotificationsClientOptions.Schema"/>.
    /// </summary>
    /// <exception cref="InvalidOperationException">No provider was chosen.</exception>
    /// <exception cref="ArgumentException">The schema is not a plain identifier.</exception>
    public static IServiceCollection AddNotificationsClient(this IServiceCollection services, Action<NotificationsClientOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        var options = new NotificationsClientOptions();
        configure(options);
        string schema = OutboxSchemaName.Checked(options.Schema, nameof(options.Schema));
        // Said at registration, not at the first enqueue: the app does not start half set up.
        var dialect = options.Dialect ?? throw new InvalidOperationException(
            "No database provider: call options.UsePostgreSql(...) (package Notifications.Client.PostgreSql) or options.UseSqlServer(...) (package Notifications.Client.SqlServer).");
        var connections = options.Connections!;
        services.TryAddSingleton(connections);
        services.TryAddSingleton<INotificationOutbox>(sp => new DbNotificationOutbox(
            dialect, schema, sp.GetRequiredService<OutboxConnections>(),
            sp.GetService<ILoggerFactory>()?.CreateLogger(NotificationOutbox.LogCategory) ?? NullLogger.Instance));
        services.TryAddSingleton<ISubscriberRegistry>(new DbSubscriberRegistry(dialect, schema));
        return services;
    }
}
