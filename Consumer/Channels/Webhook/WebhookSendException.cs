namespace Notifications.Consumer.Channels.Webhook;

/// <summary>A webhook send that failed, with the endpoint's HTTP status when it answered.</summary>
internal sealed class WebhookSendException : SendFailedException
{
    public WebhookSendException()
    {
    }

    public WebhookSendException(string message)
        : base(message)
    {
    }

    public WebhookSendException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    public WebhookSendException(SendFailureKind kind, int? status, string message, Exception? innerException = null)
        : base(kind, message, innerException)
    {
        Status = status;
    }

    /// <summary>The HTTP status the endpoint answered, or null when there was no answer.</summary>
    public int? Status { get; }

    public override string Describe() => $"webhook {Kind.ToString().ToLowerInvariant()} failure: {Message}";
}
