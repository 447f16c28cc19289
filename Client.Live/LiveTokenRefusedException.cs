namespace Notifications.Client.Live;

/// <summary>The gateway refused the client's token before the upgrade (HTTP 401), with its reason.</summary>
public sealed class LiveTokenRefusedException : Exception
{
    /// <summary>A refusal with the gateway's reason, e.g. <c>the token has expired</c>.</summary>
    public LiveTokenRefusedException(string reason)
        : base($"The gateway refused the token: {reason}") => Reason = reason;

    /// <summary>A refusal with no reason given.</summary>
    public LiveTokenRefusedException()
        : this("401 Unauthorized")
    {
    }

    /// <summary>A refusal with its reason and the exception that reported it.</summary>
    public LiveTokenRefusedException(string reason, Exception innerException)
        : base($"The gateway refused the token: {reason}", innerException) => Reason = reason;

    /// <summary>The gateway's reason, as it wrote it (<c>the token has expired</c>, <c>the token's signature is not valid</c>, …).</summary>
    public string Reason { get; } = "";
}
