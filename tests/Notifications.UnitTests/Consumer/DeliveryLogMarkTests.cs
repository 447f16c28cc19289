using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Pipeline;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Consumer;

/// <summary>At most once, the delivery log's mark is what lets exactly one copy of a notification be sent.</summary>
public sealed class DeliveryLogMarkTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(10);

    // Issue 27 (2): two copies of one notification whose marks shared a batch both got true, and both were sent. The mark
    // statement inserts each id once (distinct ids, ON CONFLICT DO NOTHING), so its answer names the id once.
    [Fact]
    public async Task TryMarkSendingAsync_TwoCopiesOfOneIdInOneBatch_ExactlyOneOwnsTheSend()
    {
        var store = new MarkingStore();
        await using var services = new ServiceCollection().AddMetrics().BuildServiceProvider();
        using var metrics = new ConsumerMetrics(services.GetRequiredService<IMeterFactory>(), TimeProvider.System);
        var infrastructure = new InfrastructureBreaker(
            Options.Create(new InfrastructureOptions()), metrics, TimeProvider.System, NullLogger<InfrastructureBreaker>.Instance);
        await using var log = new DeliveryLog(store, maxBatch: 100, infrastructure);

        // Both of the batcher's statements in flight (one id each), so the two copies queue up behind them...
        var first = log.TryMarkSendingAsync(1, CancellationToken.None);
        await store.NextStatementAsync();
        var second = log.TryMarkSendingAsync(2, CancellationToken.None);
        await store.NextStatementAsync();
        var copies = new[] { log.TryMarkSendingAsync(7, CancellationToken.None), log.TryMarkSendingAsync(7, CancellationToken.None) };

        // ...and go out together as the next statement, when one of the two in flight is done.
        store.Let(1);
        await store.NextStatementAsync();
        store.Let(10);
        bool[] owns = await Task.WhenAll(copies).WaitAsync(Patience);

        Assert.Equal([7, 7], store.Statements[2]);
        Assert.Single(owns, owned => owned);
        Assert.True(await first && await second);
    }

    /// <summary>The mark statement as both dialects run it: each id of the batch inserted once, those inserted returned.</summary>
    private sealed class MarkingStore : IDeliveryLogStore
    {
        private readonly SemaphoreSlim _gate = new(0);
        private readonly SemaphoreSlim _arrived = new(0);
        private readonly HashSet<long> _marked = [];
        private readonly List<long[]> _statements = [];

        public IReadOnlyList<long[]> Statements
        {
            get
            {
                lock (_statements)
                {
                    return [.. _statements];
                }
            }
        }

        public void Let(int statements) => _gate.Release(statements);

        public async Task NextStatementAsync() => Assert.True(await _arrived.WaitAsync(Patience), "no statement came");

        public async Task<IReadOnlySet<long>> TryMarkSendingAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken)
        {
            lock (_statements)
            {
                _statements.Add([.. ids]);
            }

            _arrived.Release();

            await _gate.WaitAsync(cancellationToken);
            lock (_marked)
            {
                return ids.Distinct().Where(_marked.Add).ToHashSet();
            }
        }

        public Task<IReadOnlySet<long>> FindSentAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) =>
            Task.FromResult<IReadOnlySet<long>>(new HashSet<long>());

        public Task RecordSentAsync(IReadOnlyCollection<SentNotification> sent, CancellationToken cancellationToken) => Task.CompletedTask;

        public Task ReleaseAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) => Task.CompletedTask;

        public Task MarkHandingBackAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) => Task.CompletedTask;

        public Task ReleaseHandedBackAsync(IReadOnlyCollection<long> ids, CancellationToken cancellationToken) => Task.CompletedTask;

        public Task RecordMaybeSentAsync(IReadOnlyCollection<MaybeSentNotification> maybeSent, CancellationToken cancellationToken) => Task.CompletedTask;

        public Task RecordFailedAttemptsAsync(IReadOnlyCollection<FailedAttempt> failed, CancellationToken cancellationToken) => Task.CompletedTask;
    }
}
