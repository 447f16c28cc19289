using System.Data.Common;
using System.Diagnostics;
using System.Text.RegularExpressions;
using Microsoft.Data.SqlClient;
using Npgsql;

namespace Notifications.Client;

/// <summary>
/// The business application's side of the outbox: add a notification inside your own open transaction,
/// so it exists exactly when your business change commits. A rolled-back transaction leaves nothing.
/// </summary>
public static partial class NotificationOutbox
{
    /// <summary>
    /// Inserts <paramref name="notification"/> in <paramref name="transaction"/> and returns its id. Its
    /// <see cref="NewNotification.TraceParent"/>, or else the current W3C Activity's id, is stored with it, so
    /// the delivery's spans join the trace of the request that caused it. With an
    /// <see cref="NewNotification.IdempotencyKey"/> already enqueued, nothing is inserted and the first
    /// notification's id is returned; a concurrent transaction enqueuing the same key waits for this one.
    /// </summary>
    /// <param name="transaction">An open transaction on a PostgreSQL (Npgsql) or SQL Server (Microsoft.Data.SqlClient) connection.</param>
    /// <param name="notification">What to send.</param>
    /// <param name="schema">The schema holding the outbox table.</param>
    /// <param name="cancellationToken">Cancels the insert.</param>
    /// <exception cref="ArgumentException">An explicit <see cref="NewNotification.TraceParent"/> is not a W3C traceparent,
    /// or the <see cref="NewNotification.IdempotencyKey"/> is empty or longer than <see cref="NewNotification.MaxIdempotencyKeyLength"/>,
    /// or a custom header or address list is refused (<see cref="NewNotification.Headers"/>).</exception>
    /// <exception cref="ArgumentOutOfRangeException"><see cref="NewNotification.Priority"/> is not a defined value.</exception>
    public static Task<long> EnqueueAsync(
        DbTransaction transaction,
        NewNotification notification,
        string schema = "notifications",
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(transaction);
        ArgumentNullException.ThrowIfNull(notification);
        var connection = transaction.Connection
            ?? throw new ArgumentException("The transaction has no connection: it was committed or rolled back.", nameof(transaction));
        if (!SchemaName().IsMatch(schema))
        {
            throw new ArgumentException($"'{schema}' is not a plain schema name.", nameof(schema));
        }

        if (notification.EmailOnlyField() is { } field)
        {
            throw new ArgumentException($"A {notification.Channel} notification has no {field}: that is email's.", nameof(notification));
        }

        var values = new OutboxValues(
            notification, TraceParentOf(notification), PriorityColumn(notification.Priority), IdempotencyKeyOf(notification), MessageHeaderValues.Of(notification));
        return connection switch
        {
            NpgsqlConnection => PostgresOutbox.EnqueueAsync(transaction, values, schema, cancellationToken),
            SqlConnection => SqlServerOutbox.EnqueueAsync(transaction, values, schema, cancellationToken),
            _ => throw new NotSupportedException(
                $"{connection.GetType().Name} is not supported: use an NpgsqlConnection or a SqlConnection."),
        };
    }

    internal static string? TraceParentOf(NewNotification notification)
    {
        if (notification.TraceParent is not { } explicitValue)
        {
            return Activity.Current is { IdFormat: ActivityIdFormat.W3C } current ? current.Id : null;
        }

        // Only the traceparent header's own form fits the column (55 characters); a traceparent with a
        // future version's extra fields does not.
        return explicitValue.Length == 55 && ActivityContext.TryParse(explicitValue, null, out _)
            ? explicitValue
            : throw new ArgumentException($"'{explicitValue}' is not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>).", nameof(notification));
    }

    internal static string? IdempotencyKeyOf(NewNotification notification) => notification.IdempotencyKey switch
    {
        null => null,
        { Length: 0 } => throw new ArgumentException("The idempotency key is empty: leave it null for none.", nameof(notification)),
        { Length: > NewNotification.MaxIdempotencyKeyLength } key => throw new ArgumentException(
            $"The idempotency key is {key.Length} characters long; at most {NewNotification.MaxIdempotencyKeyLength} fit the idempotency_key column.",
            nameof(notification)),
        var key => key,
    };

    /// <summary>The column value, as the check constraint <c>outbox_priority_known</c> allows it.</summary>
    internal static string PriorityColumn(NotificationPriority priority) => priority switch
    {
        NotificationPriority.Urgent => "urgent",
        NotificationPriority.Normal => "normal",
        NotificationPriority.Bulk => "bulk",
        _ => throw new ArgumentOutOfRangeException(
            nameof(priority), priority, "The priority must be Urgent, Normal or Bulk (column values 'urgent', 'normal', 'bulk')."),
    };

    [GeneratedRegex("^[A-Za-z_][A-Za-z0-9_]{0,62}$")]
    private static partial Regex SchemaName();
}
