using System.Data.Common;
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
    /// <summary>Inserts <paramref name="notification"/> in <paramref name="transaction"/> and returns its id.</summary>
    /// <param name="transaction">An open transaction on a PostgreSQL (Npgsql) or SQL Server (Microsoft.Data.SqlClient) connection.</param>
    /// <param name="notification">What to send.</param>
    /// <param name="schema">The schema holding the outbox table.</param>
    /// <param name="cancellationToken">Cancels the insert.</param>
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
                INSERT INTO "{schema}".outbox (recipient, subject, body, is_html, expires_at)
                VALUES (@Recipient, @Subject, @Body, @IsHtml, @ExpiresAt) RETURNING id
                """,
            SqlConnection => SqlServerInsertSql(schema),
            _ => throw new NotSupportedException(
                $"{connection.GetType().Name} is not supported: use an NpgsqlConnection or a SqlConnection."),
        };
        return connection.ExecuteScalarAsync<long>(new CommandDefinition(
            sql, notification, transaction, cancellationToken: cancellationToken));
    }

    /// <summary>The SQL Server insert, reachable by the T-SQL parser tests.</summary>
    internal static string SqlServerInsertSql(string schema) => $"""
        INSERT INTO [{schema}].[outbox] (recipient, subject, body, is_html, expires_at)
        OUTPUT INSERTED.id VALUES (@Recipient, @Subject, @Body, @IsHtml, @ExpiresAt);
        """;
}
