using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Live;

/// <summary>
/// The handlers' writes of live rows, coalesced: the rows that arrive together are added in one statement and one commit
/// (<see cref="CoalescingBatcher{T}"/>), as the delivery log's are, instead of one commit per notification. A subscriber the
/// batch takes past <see cref="LiveOptions.MaxPendingPerSubscriber"/> is logged (4251).
/// </summary>
internal sealed class LivePendingWriter : IAsyncDisposable
{
    private static readonly IReadOnlySet<LivePending> None = new HashSet<LivePending>();
    private readonly ILivePendingStore _store;
    private readonly int _cap;
    private readonly ILogger<LivePendingWriter> _logger;
    private readonly CoalescingBatcher<LivePending> _add;

    public LivePendingWriter(ILivePendingStore store, IOptions<LiveOptions> options, ConsumerOptions consumer, ILogger<LivePendingWriter> logger)
    {
        _store = store;
        _cap = options.Value.MaxPendingPerSubscriber;
        _logger = logger;
        _add = new(AddAsync, consumer.LogBatchSize, tracing: ConsumerTracing.Source, spanName: "live pending add");
    }

    /// <summary>Adds <paramref name="row"/> (a row of its id pending already stays as it is); returns once it is committed.</summary>
    public Task AddAsync(LivePending row, CancellationToken cancellationToken) => _add.SubmitAsync(row, cancellationToken);

    public ValueTask DisposeAsync() => _add.DisposeAsync();

    // Two copies of one notification in one batch (a redelivery racing the first) are one row.
    private async Task<IReadOnlySet<LivePending>> AddAsync(IReadOnlyList<LivePending> rows, CancellationToken cancellationToken)
    {
        var capped = await _store.AddAsync(rows.DistinctBy(r => r.Id).ToList(), _cap, cancellationToken);
        foreach (var subscriber in capped)
        {
            ConsumerLog.LivePendingCapped(_logger, subscriber.Subscriber, _cap, subscriber.Expired);
        }

        return None;
    }
}
