using System.Data;
using System.Data.Common;
using System.Diagnostics;
using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>
/// A notification checked and turned into column values: the one place that knows the outbox's columns, for every
/// dialect (the provider packages' <see cref="IOutboxDialect"/> put these values into their own SQL) and every way in
/// (<see cref="NotificationOutbox"/>, <see cref="INotificationOutbox"/>, the EF Core package).
/// </summary>
internal sealed record OutboxValues(NewNotification Notification, string? TraceParent, string Priority, string? IdempotencyKey, string? Headers)
{
    /// <summary>The outbox columns an enqueue fills, in the order of <see cref="Parameters"/>.</summary>
    public const string Columns = "recipient, subject, body, is_html, expires_at, traceparent, priority, not_before, reply_to, cc, bcc, headers, template_name, template_data, locale, channel, data, html_body, attachment_count, from_name, category, channels";

    /// <summary>The parameters of <see cref="Command"/> for <see cref="Columns"/>, the same in both dialects.</summary>
    public const string Parameters = "@Recipient, @Subject, @Body, @IsHtml, @ExpiresAt, @TraceParent, @Priority, @NotBefore, @ReplyTo, @Cc, @Bcc, @Headers, @TemplateName, @TemplateData, @Locale, @Channel, @Data, @HtmlBody, @AttachmentCount, @FromName, @Category, @Channels";

    /// <summary>
    /// Checks <paramref name="notification"/> as the columns and the consumer would, and takes its trace parent (the
    /// current Activity's when it names none): call it where the notification is handed over, before any connection.
    /// </summary>
    /// <exception cref="ArgumentException">A field the outbox would refuse, or that the consumer would dead-letter.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><see cref="NewNotification.Priority"/> is not a defined value.</exception>
    public static OutboxValues Of(NewNotification notification)
    {
        ArgumentNullException.ThrowIfNull(notification);
        if (notification.EmailOnlyField() is { } field)
        {
            throw new ArgumentException(notification.Channel == AudienceAddress.Channel
                ? $"A notification for a subscriber or a topic has no {field}: it takes a subject, a plain-text body and push data."
                : $"A {notification.Channel} notification has no {field}: that is email's.", field);
        }

        EmailFields.Check(notification);
        notification.CheckFromName();
        notification.CheckCategory();
        if (notification.MailPartsError() is var (error, partField))
        {
            throw new ArgumentException($"{partField}: {error}.", partField);
        }

        return new OutboxValues(
            notification, TraceParentOf(notification), PriorityColumn(notification.Priority), IdempotencyKeyOf(notification), MessageHeaderValues.Of(notification));
    }

    /// <summary>A command in <paramref name="transaction"/> carrying every value as an <c>@Name</c> parameter.</summary>
    public DbCommand Command(DbTransaction transaction, string sql)
    {
        var command = transaction.Connection!.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = sql;
        Add(command, "Recipient", DbType.String, Notification.Recipient);
        // A templated row has no subject or body (the check outbox_prepared_or_templated): the consumer renders them.
        // A webhook has no body; a push or live notification's title and text are as given (null stays null).
        var (subject, body) = Notification switch
        {
            { TemplateName: not null } => (null, null),
            { Channel: "webhook" } => (Notification.Subject, null),
            { Channel: "push" or "live" } => (NullIfEmpty(Notification.Subject), NullIfEmpty(Notification.Body)),
            _ => (Notification.Subject, Notification.Body),
        };
        Add(command, "Subject", DbType.String, subject);
        Add(command, "Body", DbType.String, body);
        Add(command, "IsHtml", DbType.Boolean, Notification.IsHtml);
        // Npgsql writes only UTC DateTimeOffsets to timestamptz; the instant is the same.
        Add(command, "ExpiresAt", DbType.DateTimeOffset, Notification.ExpiresAt?.ToUniversalTime());
        Add(command, "TraceParent", DbType.String, TraceParent);
        Add(command, "Priority", DbType.String, Priority);
        Add(command, "NotBefore", DbType.DateTimeOffset, Notification.NotBefore?.ToUniversalTime());
        Add(command, "ReplyTo", DbType.String, Notification.ReplyTo);
        Add(command, "Cc", DbType.String, Notification.Cc);
        Add(command, "Bcc", DbType.String, Notification.Bcc);
        Add(command, "Headers", DbType.String, Headers);
        Add(command, "IdempotencyKey", DbType.String, IdempotencyKey);
        Add(command, "TemplateName", DbType.String, Notification.TemplateName);
        Add(command, "TemplateData", DbType.String, Notification.TemplateData);
        Add(command, "Locale", DbType.String, Notification.Locale);
        Add(command, "Channel", DbType.AnsiString, Notification.Channel);
        Add(command, "Data", DbType.String, Notification.Data);
        Add(command, "HtmlBody", DbType.String, Notification.HtmlBody);
        Add(command, "AttachmentCount", DbType.Int16, Attachments.Count == 0 ? null : (object)(short)Attachments.Count);
        Add(command, "FromName", DbType.String, Notification.FromName);
        Add(command, "Category", DbType.String, Notification.Category);
        Add(command, "Channels", DbType.AnsiString, Notification.Channels);
        return command;
    }

    /// <summary>The files to store with the notification (none: empty).</summary>
    public IReadOnlyList<NotificationAttachment> Attachments => Notification.Attachments ?? [];

    /// <summary>
    /// Stores <see cref="Attachments"/> for notification <paramref name="id"/> in <paramref name="transaction"/> with the
    /// dialect's <paramref name="sql"/> (parameters <c>@NotificationId, @Position, @FileName, @ContentType, @Content</c>):
    /// call it only when the outbox row was inserted (a repeated idempotency key stores nothing again).
    /// </summary>
    public async Task InsertAttachmentsAsync(DbTransaction transaction, string sql, long id, CancellationToken cancellationToken)
    {
        for (int position = 0; position < Attachments.Count; position++)
        {
            var file = Attachments[position];
            await using var command = transaction.Connection!.CreateCommand();
            command.Transaction = transaction;
            command.CommandText = sql;
            Add(command, "NotificationId", DbType.Int64, id);
            Add(command, "Position", DbType.Int16, (short)position);
            Add(command, "FileName", DbType.String, file.FileName);
            Add(command, "ContentType", DbType.AnsiString, file.ContentType);
            Add(command, "Content", DbType.Binary, file.Content);
            await command.ExecuteNonQueryAsync(cancellationToken);
        }
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
            : throw new ArgumentException($"'{explicitValue}' is not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>).", nameof(NewNotification.TraceParent));
    }

    internal static string? IdempotencyKeyOf(NewNotification notification) => notification.IdempotencyKey switch
    {
        null => null,
        { Length: 0 } => throw new ArgumentException("The idempotency key is empty: leave it null for none.", nameof(NewNotification.IdempotencyKey)),
        { Length: > NewNotification.MaxIdempotencyKeyLength } key => throw new ArgumentException(
            $"The idempotency key is {key.Length} characters long; at most {NewNotification.MaxIdempotencyKeyLength} fit the idempotency_key column.",
            nameof(NewNotification.IdempotencyKey)),
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

    private static string? NullIfEmpty(string value) => value.Length == 0 ? null : value;

    /// <summary>Adds a typed parameter (null as DBNull); the registry's commands use it too.</summary>
    internal static void Add(DbCommand command, string name, DbType type, object? value)
    {
        var parameter = command.CreateParameter();
        parameter.ParameterName = name;
        parameter.DbType = type;
        parameter.Value = value ?? DBNull.Value;
        command.Parameters.Add(parameter);
    }
}
