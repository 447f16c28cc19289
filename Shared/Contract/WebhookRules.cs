using System.Text.RegularExpressions;

namespace Notifications.Shared.Contract;

/// <summary>
/// What a webhook row must be: recipient = a registered endpoint's name, subject = the event type (Standard Webhooks'
/// <c>type</c>, e.g. <c>invoice.paid</c>), data = the payload's <c>data</c>, any JSON value. No body, template or mail fields.
/// </summary>
public static partial class WebhookRules
{
    /// <summary>An endpoint name's length limit.</summary>
    public const int MaxEndpointNameLength = 64;

    /// <summary>An event type's length limit.</summary>
    public const int MaxEventTypeLength = 200;

    /// <summary>The largest payload data sent, in characters.</summary>
    public const int MaxDataLength = 256 * 1024;

    /// <summary>Null when <paramref name="message"/> is a valid webhook row; otherwise why not.</summary>
    public static string? Validate(NotificationMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        if (ValidateEndpointName(message.Recipient) is { } endpoint)
        {
            return endpoint;
        }

        if (string.IsNullOrEmpty(message.Subject) || message.Subject.Length > MaxEventTypeLength || !EventType().IsMatch(message.Subject))
        {
            return $"invalid webhook event type (subject): '{NotificationValidator.Truncate(message.Subject ?? "")}' "
                + $"is not 1-{MaxEventTypeLength} of letters, digits and . _ : - (e.g. invoice.paid)";
        }

        if (ChannelFields.EmailOnly(message, NotificationChannels.Webhook, bodyAllowed: false) is { } emailOnly)
        {
            return emailOnly;
        }

        if (message.Data is null)
        {
            return "invalid webhook data: missing (the payload's data, any JSON value)";
        }

        if (message.Data.Length > MaxDataLength)
        {
            return $"invalid webhook data: {message.Data.Length} characters, the limit is {MaxDataLength}";
        }

        using var document = ChannelFields.ParseJson(message.Data, NotificationChannels.Webhook, out string? reason);
        return reason;
    }

    /// <summary>Null when <paramref name="name"/> can name an endpoint (lower-case letters, digits, '.', '_', '-'); otherwise why not.</summary>
    public static string? ValidateEndpointName(string? name) =>
        name is not null && name.Length <= MaxEndpointNameLength && EndpointName().IsMatch(name)
            ? null
            : $"invalid webhook endpoint name (recipient): '{NotificationValidator.Truncate(name ?? "")}' is not 1-{MaxEndpointNameLength} "
              + "lower-case letters, digits, '.', '_' or '-', starting with a letter or digit";

    [GeneratedRegex("^[a-z0-9][a-z0-9._-]*$", RegexOptions.CultureInvariant)]
    private static partial Regex EndpointName();

    [GeneratedRegex("^[A-Za-z0-9._:-]+$", RegexOptions.CultureInvariant)]
    private static partial Regex EventType();
}
