using Microsoft.Extensions.Logging;

namespace Notifications.Shared;

/// <summary>Log messages of the operations endpoint (EventIds 1050-1069, kept apart from the rest).</summary>
internal static partial class SharedLog
{
    [LoggerMessage(1050, LogLevel.Information, "Operations endpoint listening on {Address} (/metrics, /health/live, /health/ready, /health/started)")]
    public static partial void OperationsEndpointStarted(ILogger logger, Uri address);

    [LoggerMessage(1051, LogLevel.Error, "Operations endpoint could not bind {Address}:{Port}; metrics and health are unavailable, the worker keeps working")]
    public static partial void OperationsEndpointFailed(ILogger logger, string address, int port, Exception exception);
}
