namespace Notifications.Shared.Contract;

/// <summary>
/// What a webhook row must be: recipient = a registered endpoint's name, subject = the event type (Standard Webhooks'
/// <c>type</c>, e.g. <c>invoice.paid</c>), data = the payload's <c>data</c>, any JSON value. No body, template or mail fields.
/// </summary>
public static class WebhookRules
{
    /// <summary>An endpoint name's length limit.</summary>
    public const int MaxEndpointNameLength = ChannelRules.MaxEndpointNameLength;

    /// <summary>Null when <paramref name="message"/> is a valid webhook row; otherwise why not.</summary>
    public static string? Validate(NotificationMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        return ChannelRules.EndpointName(message.Recipient) ?? ChannelRules.EventType(message.Subject)
            ?? ChannelFields.EmailOnly(message, NotificationChannels.Webhook, bodyAllowed: false) ?? ChannelRules.WebhookData(message.Data);
    }

    /// <summary>Null when <paramref name="name"/> can name an endpoint (lower-case letters, digits, '.', '_', '-'); otherwise why not.</summary>
    public static string? ValidateEndpointName(string? name) => ChannelRules.EndpointName(name);
}
