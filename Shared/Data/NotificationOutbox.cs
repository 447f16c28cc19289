using System.Data.Common;
using System.Diagnostics;
using Dapper;
using Microsoft.Data.SqlClient;
using Npgsql;

namespace Notifications.Shared.Data;

/// <summary>
/// The business application's side of the outbox: add a notification inside your own open transaction,
/// so it exists exactly when your business change commits. A rolled-back transaction leaves nothing.
/// </summary>
public static class NotificationOutbox
{
    /// <summary>
    /// Inserts <paramref name="notification"/> in <paramref name="transaction"/> and returns its id. Its
    /// <see cref="NewNotification.TraceParent"/>, or else the current W3C Activity's id, is stored with it, so
    /// the delivery's spans join the trace of the request that caused it.
    /// </summary>
    /// <param name="transaction">An open transaction on a PostgreSQL (Npgsql) or SQL Server (Microsoft.Data.SqlClient) connection.</param>
    /// <param name="notification">What to send.</param>
    /// <param name="schema">The schema holding the outbox table.</param>
    /// <param name="cancellationToken">Cancels the insert.</param>
    /// <exception cref="ArgumentException">An explicit <see cref="NewNotification.TraceParent"/> is not a W3C traceparent.</exception>
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
        if (!System.Text.RegularExpressions.Regex.IsMatch(schema, "^[A-Za-z_][A-Za-z0-9_]{0,62}$"))
        {
            throw new ArgumentException($"'{schema}' is not a plain schema name.", nameof(schema));
        }

        string sql = connection switch
        {
            NpgsqlConnection => $"""
                INSERT INTO "{schema}".outbox (recipient, subject, body, is_html, expires_at, traceparent, priority, not_before)
                VALUES (@Recipient, @Subject, @Body, @IsHtml, @ExpiresAt, @TraceParent, @Priority, @NotBefore) RETURNING id
                """,
            SqlConnection => SqlServerInsertSql(schema),
            _ => throw new NotSupportedException(
                $"{connection.GetType().Name} is not supported: use an NpgsqlConnection or a SqlConnection."),
        };
        var parameters = new
        {
            notification.Recipient, notification.Subject, notification.Body, notification.IsHtml, notification.ExpiresAt,
            TraceParent = TraceParentOf(notification),
            Priority = notification.Priority.ToColumn(),
            notification.NotBefore,
        };
        return connection.ExecuteScalarAsync<long>(new CommandDefinition(
            sql, parameters, transaction, cancellationToken: cancellationToken));
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

    /// <summary>The SQL Server insert, reachable by the T-SQL parser tests.</summary>
    internal static string SqlServerInsertSql(string schema) => $"""
        INSERT INTO [{schema}].[outbox] (recipient, subject, body, is_html, expires_at, traceparent, priority, not_before)
        OUTPUT INSERTED.id VALUES (@Recipient, @Subject, @Body, @IsHtml, @ExpiresAt, @TraceParent, @Priority, @NotBefore);
        """;
}
