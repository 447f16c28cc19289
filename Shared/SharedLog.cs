using Microsoft.Extensions.Logging;
using RabbitMQ.Client;

namespace Notifications.Shared;

/// <summary>Log messages of the Shared library (EventIds 1000-1099).</summary>
internal static partial class SharedLog
{
    [LoggerMessage(1000, LogLevel.Information, "Connected to RabbitMQ at {Host}:{Port} (attempt {Attempt})")]
    public static partial void BrokerConnected(ILogger logger, string host, int port, int attempt);

    // One line per attempt: while a stack starts, the broker's name may not even resolve yet; a stack trace says nothing more.
    [LoggerMessage(1001, LogLevel.Warning, "RabbitMQ at {Endpoints} not reachable (attempt {Attempt}): {Reason}; retrying in {Delay}")]
    public static partial void BrokerConnectFailed(ILogger logger, string endpoints, int attempt, string reason, TimeSpan delay);

    [LoggerMessage(1002, LogLevel.Warning, "Lost the broker: {Reason} (code {ReplyCode}, initiated by {Initiator}); reconnecting")]
    public static partial void BrokerLost(ILogger logger, string reason, ushort replyCode, ShutdownInitiator initiator);

    [LoggerMessage(1003, LogLevel.Information, "Broker back after {OutageSeconds:F1} s")]
    public static partial void BrokerBack(ILogger logger, double outageSeconds);

    [LoggerMessage(1004, LogLevel.Debug, "Broker still unreachable: {Reason}; the client tries again")]
    public static partial void BrokerStillUnreachable(ILogger logger, string reason);

    [LoggerMessage(1005, LogLevel.Critical, "The broker connection is closed ({Reason}) and the client has not tried to bring it back for {StallAfter}: its recovery stopped (RabbitMQ.Client 7.2.2, rabbitmq-dotnet-client#2004). Stopping with exit code 3, to be started again with a new connection")]
    public static partial void BrokerRecoveryStalled(ILogger logger, string reason, TimeSpan stallAfter);
}
