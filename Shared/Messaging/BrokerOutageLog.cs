using System.Diagnostics;
using Microsoft.Extensions.Logging;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace Notifications.Shared.Messaging;

/// <summary>
/// Says once that a worker lost the broker and once that the client's automatic recovery brought it back,
/// with how long it was gone. The failed reconnects in between are Debug lines: one outage, two lines.
/// </summary>
internal sealed class BrokerOutageLog
{
    private readonly ILogger _logger;
    private long _lostAt;   // Stopwatch timestamp of the loss; 0 while connected.

    private BrokerOutageLog(ILogger logger) => _logger = logger;

    public static void Attach(IConnection connection, ILogger logger)
    {
        var log = new BrokerOutageLog(logger);
        connection.ConnectionShutdownAsync += log.OnShutdownAsync;
        connection.ConnectionRecoveryErrorAsync += log.OnRecoveryErrorAsync;
        connection.RecoverySucceededAsync += log.OnRecoverySucceededAsync;
    }

    private Task OnShutdownAsync(object sender, ShutdownEventArgs args)
    {
        // The worker's own close at shutdown is no outage. A reconnect the broker refuses closes again:
        // the same outage, not a new one.
        if (args.Initiator == ShutdownInitiator.Application)
        {
            return Task.CompletedTask;
        }

        if (Interlocked.CompareExchange(ref _lostAt, Stopwatch.GetTimestamp(), 0) == 0)
        {
            SharedLog.BrokerLost(_logger, args.ReplyText, args.ReplyCode, args.Initiator);
        }
        else
        {
            SharedLog.BrokerStillUnreachable(_logger, args.ReplyText);
        }

        return Task.CompletedTask;
    }

    // A reconnect that fails before the broker answers (refused, timed out, unresolvable).
    private Task OnRecoveryErrorAsync(object sender, ConnectionRecoveryErrorEventArgs args)
    {
        SharedLog.BrokerStillUnreachable(_logger, args.Exception.Message);
        return Task.CompletedTask;
    }

    private Task OnRecoverySucceededAsync(object sender, AsyncEventArgs args)
    {
        long lostAt = Interlocked.Exchange(ref _lostAt, 0);
        if (lostAt != 0)
        {
            SharedLog.BrokerBack(_logger, Stopwatch.GetElapsedTime(lostAt).TotalSeconds);
        }

        return Task.CompletedTask;
    }
}
