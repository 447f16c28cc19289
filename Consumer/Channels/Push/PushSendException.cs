namespace Notifications.Consumer.Channels.Push;

/// <summary>A push request failed: the provider, its HTTP status and reason when it answered, and whether the token is gone.</summary>
internal sealed class PushSendException : SendFailedException
{
    public PushSendException()
        : this(SendFailureKind.Unknown, "push", null, null, "The push request failed.")
    {
    }

    public PushSendException(string message)
        : this(SendFailureKind.Unknown, "push", null, null, message)
    {
    }

    public PushSendException(string message, Exception innerException)
        : this(SendFailureKind.Unknown, "push", null, null, message, innerException)
    {
    }

    /// <param name="kind">What the failure means for the message.</param>
    /// <param name="provider"><c>fcm</c> or <c>apns</c>.</param>
    /// <param name="status">The HTTP status the provider answered, or null when it did not answer.</param>
    /// <param name="reason">The provider's reason (APNs' <c>reason</c>, FCM's <c>errorCode</c> or <c>status</c>).</param>
    /// <param name="message">What failed, with the provider's answer.</param>
    /// <param name="innerException">The I/O error or timeout behind the failure, if any.</param>
    public PushSendException(SendFailureKind kind, string provider, int? status, string? reason, string message, Exception? innerException = null)
        : base(kind, message, innerException)
    {
        Provider = provider;
        Status = status;
        Reason = reason;
    }

    public string Provider { get; }

    public int? Status { get; }

    public string? Reason { get; }

    /// <summary>The device token is no longer valid (FCM UNREGISTERED, APNs Unregistered / BadDeviceToken): suppress it.</summary>
    public bool Gone { get; init; }

    /// <summary>The provider asked to slow down (429, 503).</summary>
    public bool SlowDown { get; init; }

    public override string Describe() =>
        $"push {Provider} {Kind.ToString().ToLowerInvariant()} failure{(Status is { } status ? $" {status}" : "")}: {Message}";
}
