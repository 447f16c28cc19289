using Microsoft.Extensions.Logging;

namespace Notifications.Shared.Observability;

/// <summary>Sends the endpoint server's log lines to the worker's own logging (Serilog), after the server's filters.</summary>
internal sealed class ForwardingLoggerProvider(ILoggerFactory target) : ILoggerProvider
{
    public ILogger CreateLogger(string categoryName) => target.CreateLogger(categoryName);

    public void Dispose()
    {
        // The worker's logger factory belongs to the worker's host.
    }
}
