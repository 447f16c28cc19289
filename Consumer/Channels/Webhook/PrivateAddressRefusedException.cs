namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// The connection was not opened: the endpoint's host resolved to a loopback, link-local or private address and the endpoint
/// has no <c>allow_private</c> (server-side request forgery). Thrown by <see cref="WebhookConnector"/>; permanent for the message.
/// </summary>
internal sealed class PrivateAddressRefusedException : Exception
{
    public PrivateAddressRefusedException()
    {
    }

    public PrivateAddressRefusedException(string message)
        : base(message)
    {
    }

    public PrivateAddressRefusedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
