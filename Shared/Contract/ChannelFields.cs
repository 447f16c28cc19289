namespace Notifications.Shared.Contract;

/// <summary>The check webhook and push rows share: the email-only fields left empty.</summary>
internal static class ChannelFields
{
    /// <summary>Null when none of the email-only fields is set; otherwise which one is, for <paramref name="channel"/>.</summary>
    public static string? EmailOnly(NotificationMessage message, string channel, bool bodyAllowed)
    {
        string? field = message switch
        {
            { TemplateName: not null } => "a template",
            { ReplyTo: not null } => "reply_to",
            { Cc: not null } => "cc",
            { Bcc: not null } => "bcc",
            { Headers: not null } => "headers",
            { IsHtml: true } => "is_html",
            { Body: not null } when !bodyAllowed => "a body",
            _ => null,
        };
        return field is null ? null : $"invalid {channel} notification: it carries {field}, which only email has";
    }
}
