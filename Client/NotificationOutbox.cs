using System.Data.Common;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Notifications.Client;

/// <summary>
/// The business application's side of the outbox, without dependency injection: add a notification inside your own
/// open transaction, so it exists exactly when your business change commits. A rolled-back transaction leaves nothing.
/// The dialect follows the connection (<c>NpgsqlConnection</c>: the <c>Notifications.Client.PostgreSql</c> package;
/// <c>SqlConnection</c>: <c>Notifications.Client.SqlServer</c>). With DI, inject <see cref="INotificationOutbox"/>
/// (<see cref="NotificationsClientServiceCollectionExtensions.AddNotificationsClient"/>).
/// </summary>
public static class NotificationOutbox
{
    /// <summary>
    /// Where this class and the EF Core package log (category <c>Notifications.Client</c>, EventIds 7000-7099), e.g. the
    /// warning that template variables cannot be checked at enqueue (7000): set it once at start-up to the app's
    /// <see cref="ILoggerFactory"/>. None by default. The DI client (<see cref="INotificationOutbox"/>) logs to the
    /// container's factory instead.
    /// </summary>
    public static ILoggerFactory LoggerFactory
    {
        get => _loggerFactory;
        set => _loggerFactory = value ?? throw new ArgumentNullException(nameof(value));
    }

    private static ILoggerFactory _loggerFactory = NullLoggerFactory.Instance;

    /// <summary>The logger of the paths without DI (<see cref="LoggerFactory"/>).</summary>
    internal static ILogger Logger => _loggerFactory.CreateLogger(LogCategory);

    /// <summary>The category the client logs under, with or without DI.</summary>
    internal const string LogCategory = "Notifications.Client";

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
    /// or a custom header or a Reply-To, Cc or Bcc list is refused, or an e-mail's recipient, subject, body, HTML body or
    /// attachments are ones the consumer would dead-letter (not one bare address, a line break, over its length), or a
    /// field the channel does not take is set; or a templated notification's data lacks a variable its template uses
    /// (docs/templates.md, "Variables checked at enqueue"). <see cref="ArgumentException.ParamName"/> is the field's
    /// property name (<c>Recipient</c>, <c>Cc</c>, <c>HtmlBody</c>, <c>TemplateData</c>, ...) and the message the consumer's
    /// reason (docs/client.md, "What enqueue refuses").</exception>
    /// <exception cref="ArgumentOutOfRangeException"><see cref="NewNotification.Priority"/> is not a defined value.</exception>
    /// <exception cref="NotSupportedException">The connection's driver is not supported, or its provider package is not referenced.</exception>
    public static Task<long> EnqueueAsync(
        DbTransaction transaction,
        NewNotification notification,
        string schema = OutboxSchemaName.Default,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(transaction);
        var connection = ConnectionOf(transaction);
        OutboxSchemaName.Checked(schema, nameof(schema));
        var values = OutboxValues.Of(notification);
        return EnqueueCheckedAsync(OutboxDialects.For(connection), transaction, values, schema, Logger, cancellationToken);
    }

    /// <summary>The template check (<see cref="TemplateCatalog"/>), then the insert: every way in ends here.</summary>
    internal static async Task<long> EnqueueCheckedAsync(
        IOutboxDialect dialect, DbTransaction transaction, OutboxValues values, string schema, ILogger logger, CancellationToken cancellationToken)
    {
        await TemplateCatalog.CheckAsync(dialect, transaction, values, schema, logger, cancellationToken);
        return await dialect.EnqueueAsync(transaction, values, schema, cancellationToken);
    }

    /// <summary>
    /// The status of notification <paramref name="id"/> (the schema's <c>notification_status</c> function), read on
    /// <paramref name="connection"/>, which must be open. <see cref="NotificationState.Unknown"/> if the database knows nothing of it.
    /// </summary>
    /// <exception cref="NotSupportedException">The connection's driver is not supported, or its provider package is not referenced.</exception>
    public static Task<NotificationStatus> GetStatusAsync(
        DbConnection connection,
        long id,
        string schema = OutboxSchemaName.Default,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(connection);
        OutboxSchemaName.Checked(schema, nameof(schema));
        return NotificationStatusReader.ReadAsync(connection, OutboxDialects.For(connection).StatusSql(schema), id, cancellationToken);
    }

    internal static DbConnection ConnectionOf(DbTransaction transaction) => transaction.Connection
        ?? throw new ArgumentException("The transaction has no connection: it was committed or rolled back.", nameof(transaction));
}
