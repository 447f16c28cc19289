using System.Data;
using System.Data.Common;

namespace Notifications.Client;

/// <summary>A notification checked and turned into column values, the same for both dialects.</summary>
internal sealed record OutboxValues(NewNotification Notification, string? TraceParent, string Priority, string? IdempotencyKey, string? Headers)
{
    /// <summary>The outbox columns an enqueue fills, in the order of <see cref="Parameters"/>.</summary>
    public const string Columns = "recipient, subject, body, is_html, expires_at, traceparent, priority, not_before, reply_to, cc, bcc, headers, template_name, template_data, locale, channel, data";

    /// <summary>The parameters of <see cref="Command"/> for <see cref="Columns"/>, the same in both dialects.</summary>
    public const string Parameters = "@Recipient, @Subject, @Body, @IsHtml, @ExpiresAt, @TraceParent, @Priority, @NotBefore, @ReplyTo, @Cc, @Bcc, @Headers, @TemplateName, @TemplateData, @Locale, @Channel, @Data";

    /// <summary>A command in <paramref name="transaction"/> carrying every value as an <c>@Name</c> parameter.</summary>
    public DbCommand Command(DbTransaction transaction, string sql)
    {
        var command = transaction.Connection!.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = sql;
        Add(command, "Recipient", DbType.String, Notification.Recipient);
        // A templated row has no subject or body (the check outbox_prepared_or_templated): the consumer renders them.
        // A webhook has no body; a push notification's title and text are as given (null stays null).
        var (subject, body) = Notification switch
        {
            { TemplateName: not null } => (null, null),
            { Channel: "webhook" } => (Notification.Subject, null),
            { Channel: "push" } => (NullIfEmpty(Notification.Subject), NullIfEmpty(Notification.Body)),
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
        return command;
    }

    private static string? NullIfEmpty(string value) => value.Length == 0 ? null : value;

    private static void Add(DbCommand command, string name, DbType type, object? value)
    {
        var parameter = command.CreateParameter();
        parameter.ParameterName = name;
        parameter.DbType = type;
        parameter.Value = value ?? DBNull.Value;
        command.Parameters.Add(parameter);
    }
}
