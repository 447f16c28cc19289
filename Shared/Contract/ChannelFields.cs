using System.Text.Json;

namespace Notifications.Shared.Contract;

/// <summary>Checks the webhook and push rules share: the email-only columns left empty, and JSON data.</summary>
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

    /// <summary>Parses <paramref name="data"/> as one JSON value; null and why when it is not.</summary>
    public static JsonDocument? ParseJson(string data, string channel, out string? reason)
    {
        try
        {
            var document = JsonDocument.Parse(data);
            reason = null;
            return document;
        }
        catch (JsonException ex)
        {
            reason = $"invalid {channel} data: not JSON ({ex.Message})";
            return null;
        }
    }
}
