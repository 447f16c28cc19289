using System.Data.Common;
using System.Net.Sockets;
using Microsoft.Data.SqlClient;
using Npgsql;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Consumer.Infrastructure;

/// <summary>
/// Tells a failure of the consumer's database or broker — unreachable, cut off, timed out, overloaded, shutting down, a
/// publish not confirmed — from a fault of the message or the code. The first is not the message's: it waits, unspent
/// (<see cref="InfrastructureBreaker"/>); the second is retried and dead-lettered as before, so a poison message cannot
/// hold a handler for good. A failure the database calls permanent (a missing grant, a missing table) is the second kind.
/// </summary>
internal static class InfrastructureFailure
{
    // SQL Server's transient errors (SqlClient has no IsTransient): timeout, connection errors, deadlock victim, Azure SQL's
    // "busy", "not available", "failover in progress"; and any error of severity 20 or more, which closes the connection.
    private static readonly HashSet<int> SqlServerTransient = [-2, -1, 53, 64, 233, 1205, 4060, 10053, 10054, 10060, 10928, 10929, 40197, 40501, 40613, 49918, 49919, 49920];

    /// <summary>True when <paramref name="exception"/> or one of its inner exceptions says the database or the broker failed.</summary>
    public static bool Is(Exception exception)
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            if (IsOne(e))
            {
                return true;
            }
        }

        return exception is AggregateException aggregate && aggregate.InnerExceptions.Any(Is);
    }

    private static bool IsOne(Exception e) => e switch
    {
        // 08 connection, 53 insufficient resources, 57 operator intervention (a statement timeout, a shutdown), 58 system error.
        PostgresException postgres => postgres.IsTransient || postgres.SqlState[..2] is "08" or "53" or "57" or "58",
        NpgsqlException npgsql => npgsql.IsTransient,
        SqlException sql => sql.Class >= 20 || sql.Errors.Cast<SqlError>().Any(error => SqlServerTransient.Contains(error.Number)),
        DbException db => db.IsTransient,
        // The broker: a closed channel or connection, no node reachable, a publish returned or not confirmed (OutboundPublisher).
        AlreadyClosedException or OperationInterruptedException or BrokerUnreachableException or PublishException => true,
        TimeoutException or SocketException or IOException => true,
        _ => false,
    };
}
