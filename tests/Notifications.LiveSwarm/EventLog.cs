namespace Notifications.LiveSwarm;

/// <summary>The clients' events, one line each, written through at once (the scripts read the file while the clients run).</summary>
internal sealed class EventLog(string path) : IAsyncDisposable
{
    private readonly StreamWriter _writer = new(path, append: true) { AutoFlush = true };
    private readonly Lock _gate = new();

    public void Write(string line)
    {
        lock (_gate)
        {
            _writer.WriteLine(line);
        }
    }

    public ValueTask DisposeAsync() => _writer.DisposeAsync();
}
