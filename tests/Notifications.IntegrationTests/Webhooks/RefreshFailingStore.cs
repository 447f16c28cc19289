using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Notifications.Shared.Data;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// The consumer's endpoint store with its refresh read (<see cref="IWebhookEndpointStore.ChangesSinceAsync"/>) failing while
/// <see cref="Failing"/> is set, as a refresh query that times out would; every other call goes to the real table. Counts
/// the refresh reads that failed and that succeeded, so a test waits for them instead of for time.
/// </summary>
internal sealed class RefreshFailingStore(IWebhookEndpointStore table) : IWebhookEndpointStore
{
    private readonly SemaphoreSlim _done = new(0);
    private int _failed;
    private int _succeeded;

    public bool Failing { get; set; }

    public int Failed => Volatile.Read(ref _failed);

    public int Succeeded => Volatile.Read(ref _succeeded);

    /// <summary>Puts one in front of the consumer's store (call after <c>AddConsumer</c>).</summary>
    public static void Install(IHostApplicationBuilder builder, Action<RefreshFailingStore> created)
    {
        var real = builder.Services.Last(d => d.ServiceType == typeof(IWebhookEndpointStore));
        builder.Services.Remove(real);
        builder.Services.AddSingleton<IWebhookEndpointStore>(sp =>
        {
            var store = new RefreshFailingStore((IWebhookEndpointStore)real.ImplementationFactory!(sp));
            created(store);
            return store;
        });
    }

    /// <summary>Waits until <paramref name="done"/> holds (probed after each refresh read), at most <paramref name="timeout"/>.</summary>
    public async Task WaitUntilAsync(Func<RefreshFailingStore, bool> done, TimeSpan timeout, string what)
    {
        using var deadline = new CancellationTokenSource(timeout);
        while (!done(this))
        {
            try
            {
                await _done.WaitAsync(deadline.Token);
            }
            catch (OperationCanceledException)
            {
                throw new TimeoutException($"{what}: not within {timeout} ({Failed} refresh reads failed, {Succeeded} succeeded)");
            }
        }
    }

    public async Task<IReadOnlyList<WebhookEndpoint>> ChangesSinceAsync(DateTimeOffset? since, CancellationToken cancellationToken)
    {
        try
        {
            if (Failing)
            {
                Interlocked.Increment(ref _failed);
                throw new TimeoutException("the refresh query timed out (injected by the test)");
            }

            var rows = await table.ChangesSinceAsync(since, cancellationToken);
            Interlocked.Increment(ref _succeeded);
            return rows;
        }
        finally
        {
            _done.Release();
        }
    }

    public Task<bool> AddAsync(string name, string url, string secret, bool allowPrivate, CancellationToken cancellationToken) =>
        table.AddAsync(name, url, secret, allowPrivate, cancellationToken);

    public Task<IReadOnlyList<WebhookEndpoint>> ListAsync(CancellationToken cancellationToken) => table.ListAsync(cancellationToken);

    public Task<WebhookEndpoint?> FindAsync(string name, CancellationToken cancellationToken) => table.FindAsync(name, cancellationToken);

    public Task<bool> DisableAsync(string name, string reason, CancellationToken cancellationToken) => table.DisableAsync(name, reason, cancellationToken);

    public Task<bool> EnableAsync(string name, CancellationToken cancellationToken) => table.EnableAsync(name, cancellationToken);

    public Task<bool> RotateSecretAsync(string name, string secret, TimeSpan overlap, CancellationToken cancellationToken) =>
        table.RotateSecretAsync(name, secret, overlap, cancellationToken);
}
