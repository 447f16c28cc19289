using System.Collections.Concurrent;
using System.Data.Common;
using System.Diagnostics.CodeAnalysis;

namespace Notifications.Client;

/// <summary>
/// Finds the dialect for a connection the app hands over (<see cref="NotificationOutbox"/>, the EF Core package): by the
/// connection's type name, in the provider package the app references. The core references no driver, so it names them
/// as <c>DbProviderFactories</c> does; the provider package is loaded only when its connection shows up.
/// </summary>
internal static class OutboxDialects
{
    private const string PostgresDialect = "Notifications.Client.PostgreSql.PostgresOutboxDialect";
    private const string PostgresPackage = "Notifications.Client.PostgreSql";
    private const string SqlServerDialect = "Notifications.Client.SqlServer.SqlServerOutboxDialect";
    private const string SqlServerPackage = "Notifications.Client.SqlServer";

    private static readonly (string Connection, string Dialect, string Package)[] Known =
    [
        ("Npgsql.NpgsqlConnection", PostgresDialect, PostgresPackage),
        ("Microsoft.Data.SqlClient.SqlConnection", SqlServerDialect, SqlServerPackage),
    ];

    private static readonly ConcurrentDictionary<Type, IOutboxDialect> Found = new();

    /// <exception cref="NotSupportedException">The connection is of no supported driver, or its provider package is not referenced.</exception>
    [DynamicDependency(DynamicallyAccessedMemberTypes.PublicConstructors, PostgresDialect, PostgresPackage)]
    [DynamicDependency(DynamicallyAccessedMemberTypes.PublicConstructors, SqlServerDialect, SqlServerPackage)]
    public static IOutboxDialect For(DbConnection connection) => Found.GetOrAdd(connection.GetType(), Load);

    /// <summary>
    /// The check of a transaction the app hands to a client set up for <paramref name="dialect"/> (the outbox, the subscriber
    /// registry): open, and on that dialect's connection type.
    /// </summary>
    /// <exception cref="ArgumentException">The transaction is finished, or on another driver's connection.</exception>
    public static void CheckTransaction(IOutboxDialect dialect, DbTransaction transaction)
    {
        ArgumentNullException.ThrowIfNull(transaction);
        var connection = NotificationOutbox.ConnectionOf(transaction);
        if (!dialect.ConnectionType.IsInstanceOfType(connection))
        {
            throw new ArgumentException(
                $"The transaction is on a {connection.GetType().Name}; the client is set up for {dialect.ConnectionType.Name} ({dialect.PackageId}).",
                nameof(transaction));
        }
    }

    private static IOutboxDialect Load(Type connectionType)
    {
        for (var type = connectionType; type is not null; type = type.BaseType)
        {
            foreach (var (connection, dialect, package) in Known)
            {
                if (type.FullName != connection)
                {
                    continue;
                }

                var found = Type.GetType($"{dialect}, {package}", throwOnError: false)
                    ?? throw new NotSupportedException($"{type.Name} needs the {package} package: add it to the app (dotnet add package {package}).");
                return (IOutboxDialect)Activator.CreateInstance(found)!;
            }
        }

        throw new NotSupportedException(
            $"{connectionType.Name} is not supported: use an NpgsqlConnection (Notifications.Client.PostgreSql) or a SqlConnection (Notifications.Client.SqlServer).");
    }
}
