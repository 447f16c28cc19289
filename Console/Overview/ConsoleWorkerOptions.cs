namespace Notifications.OperatorConsole.Overview;

/// <summary>
/// One worker whose operations endpoint the overview reads (<c>Console:Workers:N</c>): its readiness (<c>/health/ready</c>)
/// and circuit breakers (<c>/breakers</c>).
/// </summary>
internal sealed class ConsoleWorkerOptions
{
    /// <summary>What the overview calls it, e.g. <c>consumer-1</c>.</summary>
    public string Name { get; set; } = "";

    /// <summary>Its operations endpoint, e.g. <c>http://consumer:9464/</c> (the port of its <c>Metrics:Port</c>).</summary>
    public Uri? Url { get; set; }
}
