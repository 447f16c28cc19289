using System.Net.Sockets;
using Npgsql;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Shared.Observability;

/// <summary>
/// Tells an expected connection failure (a host name that does not resolve yet, a refused or timed-out connect: what
/// every worker sees while the stack starts) from a fault worth a stack trace, and says it in one line.
/// </summary>
public static class ConnectionFailure
{
    /// <summary>
    /// True when <paramref name="exception"/> is a service not (yet) reachable: a socket error or timeout anywhere in
    /// its chain, RabbitMQ's "no endpoint reachable", or a failure Npgsql itself calls transient.
    /// </summary>
    public static bool IsExpected(Exception exception) =>
        Chain(exception).Any(e => e is SocketException or TimeoutException or BrokerUnreachableException or NpgsqlException { IsTransient: true });

    /// <summary>
    /// The messages of the exception and its inner ones, each once, in one line: e.g. "None of the specified endpoints
    /// were reachable: Name or service not known".
    /// </summary>
    public static string Describe(Exception exception) =>
        string.Join(": ", Chain(exception).Where(e => e is not AggregateException).Select(e => e.Message.Trim()).Distinct());

    private static IEnumerable<Exception> Chain(Exception exception)
    {
        var pending = new Stack<Exception>([exception]);
        while (pending.TryPop(out var e))
        {
            yield return e;
            var inner = e is AggregateException aggregate ? aggregate.InnerExceptions : e.InnerException is { } one ? [one] : [];
            foreach (var next in inner.Reverse())
            {
                pending.Push(next);
            }
        }
    }
}
