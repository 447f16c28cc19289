using Microsoft.Extensions.Logging;

namespace Notifications.Shared;

/// <summary>Log messages of the Shared library (EventIds 1000-1099).</summary>
internal static partial class SharedLog
{
    [LoggerMessage(1000, LogLevel.Information, "Connected to RabbitMQ at {Host}:{Port} (attempt {Attempt})")]
    public static partial void BrokerConnected(ILogger logger, string host, int port, int attempt);

    [LoggerMessage(1001, LogLevel.Warning, "RabbitMQ at {Host}:{Port} not reachable (attempt {Attempt}); retrying in {Delay}")]
    public static partial void BrokerConnectFailed(ILogger logger, string host, int port, int attempt, TimeSpan delay, Exception exception);
}
