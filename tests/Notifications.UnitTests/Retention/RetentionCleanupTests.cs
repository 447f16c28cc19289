using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Shared.Data;
using Notifications.Shared.Retention;
using Notifications.UnitTests.Consumer;

namespace Notifications.UnitTests.Retention;

/// <summary>The cleanup's loop: batches until one comes back short, cutoffs from the options, the watermark raised per batch.</summary>
public sealed class RetentionCleanupTests
{
    [Fact]
    public async Task RunAsync_FullBatchesThenShort_DrainsEachTableAndRaisesTheWatermark()
    {
        var store = new FakeStore(logBatches: [3, 3, 1], deadBatches: [2], keyBatches: [3, 0], fanOutDeliveryBatches: [3, 2], fanOutJobBatches: [1], liveBatches: [3, 1],
            eventBatches: [3, 3, 2]);
        var time = new ManualTime(new DateTimeOffset(2026, 11, 23, 12, 0, 0, TimeSpan.Zero));
        var options = new RetentionOptions { BatchSize = 3, BatchPause = TimeSpan.Zero, DeliveryLog = TimeSpan.FromDays(7), DeadLetters = TimeSpan.FromDays(2) };

        var result = await new RetentionCleanup(store, options, time, NullLogger<RetentionCleanup>.Instance).RunAsync(CancellationToken.None);

        Assert.Equal(new RetentionResult(7, 2, 14, 3, FanOuts: 1, FanOutDeliveries: 5, ExpiredLive: 4, OutcomeEvents: 8), result);
        Assert.All(store.LogCutoffs, c => Assert.Equal(time.GetUtcNow() - TimeSpan.FromDays(7), c));
        Assert.Equal(time.GetUtcNow() - TimeSpan.FromDays(2), Assert.Single(store.DeadCutoffs));
        // Idempotency keys and finished fan-outs live as long as the delivery log.
        // Idempotency keys, finished fan-outs, expired live rows and outcome events live as long as the delivery log.
        Assert.All(store.KeyCutoffs.Concat(store.FanOutCutoffs).Concat(store.LiveCutoffs).Concat(store.EventCutoffs), c => Assert.Equal(time.GetUtcNow() - TimeSpan.FromDays(7), c));
        Assert.All(store.BatchSizes, n => Assert.Equal(3, n));
        // One watermark per batch that deleted something with an outbox id (its highest id), then the run itself: a fan-out
        // job's id is its audience row's, its deliveries' ids are not the outbox's.
        Assert.Equal([3L, 6L, 7L, 102L, 201L, null], store.Watermarks);
    }

    [Fact]
    public async Task RunAsync_NothingOld_OneBatchPerTable()
    {
        var store = new FakeStore(logBatches: [0], deadBatches: [0], keyBatches: [0], fanOutDeliveryBatches: [0], fanOutJobBatches: [0], liveBatches: [0], eventBatches: [0]);

        var result = await new RetentionCleanup(store, new RetentionOptions(), TimeProvider.System, NullLogger<RetentionCleanup>.Instance).RunAsync(CancellationToken.None);

        Assert.Equal(new RetentionResult(0, 0, 7), result);
        Assert.Equal([null], store.Watermarks);
    }

    private sealed class FakeStore(int[] logBatches, int[] deadBatches, int[] keyBatches, int[] fanOutDeliveryBatches, int[] fanOutJobBatches, int[] liveBatches, int[] eventBatches)
        : IRetentionStore
    {
        private int _live;
        private int _events;
        private int _fanOutDeliveries;
        private int _fanOutJobs;
        private int _log;
        private int _dead;
        private int _keys;
        private long _lastLogId;

        public List<DateTimeOffset> LogCutoffs { get; } = [];

        public List<DateTimeOffset> DeadCutoffs { get; } = [];

        public List<DateTimeOffset> KeyCutoffs { get; } = [];

        public List<DateTimeOffset> FanOutCutoffs { get; } = [];

        public List<DateTimeOffset> LiveCutoffs { get; } = [];

        public List<DateTimeOffset> EventCutoffs { get; } = [];

        public List<int> BatchSizes { get; } = [];

        public List<long?> Watermarks { get; } = [];

        public Task<bool> TryLeaseAsync(string holder, TimeSpan lease, CancellationToken cancellationToken) => Task.FromResult(true);

        public Task<RetentionBatch> DeleteDeliveryLogAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken)
        {
            LogCutoffs.Add(cutoff);
            BatchSizes.Add(batchSize);
            int deleted = logBatches[_log++];
            _lastLogId += deleted;
            return Task.FromResult(new RetentionBatch(deleted, deleted > 0 ? _lastLogId : null));
        }

        public Task<RetentionBatch> DeleteDeadLettersAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken)
        {
            DeadCutoffs.Add(cutoff);
            BatchSizes.Add(batchSize);
            int deleted = deadBatches[_dead++];
            return Task.FromResult(new RetentionBatch(deleted, deleted > 0 ? 100 + deleted : null));
        }

        public Task<RetentionBatch> DeleteIdempotencyKeysAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken)
        {
            KeyCutoffs.Add(cutoff);
            BatchSizes.Add(batchSize);
            return Task.FromResult(new RetentionBatch(keyBatches[_keys++], null));
        }

        public Task<RetentionBatch> DeleteFanOutDeliveriesAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken)
        {
            FanOutCutoffs.Add(cutoff);
            BatchSizes.Add(batchSize);
            return Task.FromResult(new RetentionBatch(fanOutDeliveryBatches[_fanOutDeliveries++], null));
        }

        public Task<RetentionBatch> DeleteFanOutJobsAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken)
        {
            FanOutCutoffs.Add(cutoff);
            BatchSizes.Add(batchSize);
            int deleted = fanOutJobBatches[_fanOutJobs++];
            return Task.FromResult(new RetentionBatch(deleted, deleted > 0 ? 200 + deleted : null));
        }

        public Task<RetentionBatch> DeleteExpiredLiveAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken)
        {
            LiveCutoffs.Add(cutoff);
            BatchSizes.Add(batchSize);
            return Task.FromResult(new RetentionBatch(liveBatches[_live++], null));
        }

        public Task<RetentionBatch> DeleteOutcomeEventsAsync(DateTimeOffset cutoff, int batchSize, CancellationToken cancellationToken)
        {
            EventCutoffs.Add(cutoff);
            BatchSizes.Add(batchSize);
            return Task.FromResult(new RetentionBatch(eventBatches[_events++], null));
        }

        public Task RecordRunAsync(long? maxDeletedId, CancellationToken cancellationToken)
        {
            Watermarks.Add(maxDeletedId);
            return Task.CompletedTask;
        }
    }
}
