using Notifications.Shared.Data;

namespace Notifications.UnitTests.Webhooks;

/// <summary>
/// The <c>webhook_endpoint</c> table in memory, for the endpoint cache's tests: rows put with the <c>changed_at</c> the test
/// chooses, refresh reads that fail while <see cref="FailReads"/> is set (a lookup by name still answers, as a database whose
/// refresh query times out may), each refresh read counted so a test can wait for the next one, and a read that can be held.
/// </summary>
internal sealed class EndpointTable : IWebhookEndpointStore
{
    private readonly Lock _gate = new();
    private readonly Dictionary<string, WebhookEndpoint> _rows = new(StringComparer.Ordinal);
    private readonly SemaphoreSlim _read = new(0);
    private TaskCompletionSource? _hold;
    private int _reads;

    /// <summary>Refresh reads (<see cref="ChangesSinceAsync"/>) throw while this is set.</summary>
    public bool FailReads { get; set; }

    /// <summary>How many refresh reads began.</summary>
    public int Reads => Volatile.Read(ref _reads);

    public void Put(WebhookEndpoint row)
    {
        lock (_gate)
        {
            _rows[row.Name] = row;
        }
    }

    public WebhookEndpoint Row(string name)
    {
        lock (_gate)
        {
            return _rows[name];
        }
    }

    /// <summary>The next refresh read takes its rows, then waits until the returned source is completed.</summary>
    public TaskCompletionSource HoldNextRead()
    {
        var hold = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Volatile.Write(ref _hold, hold);
        return hold;
    }

    /// <summary>Waits until at least <paramref name="count"/> refresh reads began.</summary>
    public async Task WaitForReadsAsync(int count)
    {
        while (Reads < count)
        {
            if (!await _read.WaitAsync(TimeSpan.FromSeconds(10)))
            {
                throw new TimeoutException($"refresh read {count} did not begin within 10 s ({Reads} began)");
            }
        }
    }

    public async Task<IReadOnlyList<WebhookEndpoint>> ChangesSinceAsync(DateTimeOffset? since, CancellationToken cancellationToken)
    {
        await Task.Yield();
        List<WebhookEndpoint> rows;
        lock (_gate)
        {
            rows = [.. _rows.Values.Where(r => since is null || r.ChangedAt >= since)];
        }

        bool fail = FailReads;
        var hold = Interlocked.Exchange(ref _hold, null);
        Interlocked.Increment(ref _reads);
        _read.Release();
        if (fail)
        {
            throw new TimeoutException("the refresh query timed out");
        }

        if (hold is not null)
        {
            await hold.Task.WaitAsync(cancellationToken);
        }

        return rows;
    }

    public Task<WebhookEndpoint?> FindAsync(string name, CancellationToken cancellationToken)
    {
        lock (_gate)
        {
            return Task.FromResult(_rows.GetValueOrDefault(name));
        }
    }

    public Task<IReadOnlyList<WebhookEndpoint>> ListAsync(CancellationToken cancellationToken) => throw new NotSupportedException();

    public Task<bool> AddAsync(string name, string url, string secret, bool allowPrivate, CancellationToken cancellationToken) =>
        throw new NotSupportedException();

    public Task<bool> DisableAsync(string name, string reason, CancellationToken cancellationToken) => throw new NotSupportedException();

    public Task<bool> EnableAsync(string name, CancellationToken cancellationToken) => throw new NotSupportedException();

    public Task<bool> RotateSecretAsync(string name, string secret, TimeSpan overlap, CancellationToken cancellationToken) =>
        throw new NotSupportedException();
}
