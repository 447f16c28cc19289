using System.Diagnostics;
using Microsoft.Extensions.Options;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Data.FanOut;
using Notifications.Producer.FanOut;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;

namespace Notifications.Producer;

/// <summary>Claims one batch, publishes it with confirms, and commits only when every confirm is in.</summary>
internal sealed class BatchPublisher(
    IOutboxStore store, IOptions<ProducerOptions> producerOptions, IOptions<RabbitMqOptions> rabbitOptions, ProducerMetrics metrics, ProducerTracing tracing, FaultInjector faults, FanOutWake fanOutWake,
    InClaimFanOut inClaim, IOptions<FanOutOptions> fanOutOptions)
{
    private readonly bool _liveBroadcasts = fanOutOptions.Value.LiveBroadcast;
    private readonly ProducerOptions _options = producerOptions.Value;
    private readonly RabbitMqOptions _rabbit = rabbitOptions.Value;

    /// <summary>
    /// Publishes the next batch of <paramref name="lane"/> on <paramref name="channel"/> (confirms and
    /// tracking on) and returns how many rows it took. Throws if any publish is nacked, returned or times out: the transaction then
    /// rolls back and the rows are claimed again later (at-least-once; consumers deduplicate).
    /// </summary>
    public async Task<int> PublishNextBatchAsync(IChannel channel, ProducerLane lane, CancellationToken cancellationToken)
    {
        var claimStarted = DateTimeOffset.UtcNow;
        await using var claim = await store.ClaimAsync(lane.Priorities, lane.BatchSize, cancellationToken);
        metrics.ClaimEnded(lane, claimStarted, claim.Rows);
        if (claim.Rows.Count == 0)
        {
            return 0;
        }

        metrics.Claimed(claim.Rows.Count);
        using var batch = ProducerTracing.StartBatch(claimStarted, claim.Rows.Count);

        // Not linked to shutdown: once rows are claimed, the batch is finished and committed (bounded by the
        // publish timeout). Cancelling it would roll back rows whose messages are already on the broker.
        using var timeout = new CancellationTokenSource(_options.PublishTimeout);
        // A row for a subscriber or a topic is not published: its fan-out job is written in this transaction, and the
        // fan-out stage publishes its deliveries (docs/fan-out.md).
        var (rows, jobs, refused) = SplitAudienceRows(claim.Rows);
        long publishStarted = Stopwatch.GetTimestamp();
        var rejects = await PublishAsync(channel, rows, batch, timeout.Token, claimStarted);
        rejects.AddRange(refused);
        metrics.Confirmed(rows.Count - rejects.Count, lane, publishStarted);
        faults.Reached("before-commit");
        await claim.RejectAsync(rejects, timeout.Token);
        await claim.StartFanOutsAsync(jobs, timeout.Token);
        // A subscriber's job is one page: written here and published right after the commit, not by the stage.
        var taken = jobs.Count == 0 ? [] : await inClaim.WriteAsync(claim, jobs, timeout.Token);
        metrics.Rejected(rejects.Count);
        // Every confirm is in: commit even if shutdown began meanwhile. Rolling back now would only
        // produce duplicates; the commit itself is bounded by the command timeout.
        await claim.CommitAsync(CancellationToken.None);
        if (jobs.Count > taken.Count)
        {
            fanOutWake.Wake();
        }

        inClaim.Publish(this, channel, taken);
        return claim.Rows.Count;
    }

    // The rows to publish, the audience rows' jobs, and the audience rows refused with their reason: of a shape the outbox's
    // checks refuse, or too large for the broker (a delivery is as large), rejected at once as a row of one address would be.
    // A live row to a topic is published as one broadcast, no job (docs/live.md#broadcasts-to-a-topic).
    private (IReadOnlyList<OutboxRow> Rows, List<FanOutJob> Jobs, List<(OutboxRow, string)> Refused) SplitAudienceRows(IReadOnlyList<OutboxRow> claimed)
    {
        var jobs = new List<FanOutJob>();
        var refused = new List<(OutboxRow, string)>();
        var broadcasts = new Dictionary<long, OutboxRow>();
        foreach (var row in claimed.Where(r => r.IsAudience))
        {
            if ((FanOutJob.Refusal(row) ?? TooLarge(row)) is { } reason)
            {
                refused.Add((row, reason));
            }
            else if (_liveBroadcasts && LiveBroadcasts.IsBroadcast(row))
            {
                broadcasts[row.Id] = LiveBroadcasts.Row(row);
            }
            else
            {
                jobs.Add(FanOutJob.Of(row));
            }
        }

        return (jobs.Count + refused.Count + broadcasts.Count == 0
            ? claimed
            : claimed.Where(r => !r.IsAudience || broadcasts.ContainsKey(r.Id)).Select(r => broadcasts.GetValueOrDefault(r.Id, r)).ToList(), jobs, refused);
    }

    private string? TooLarge(OutboxRow row) => MessageSerializer.Serialize(row.ToMessage()).Length is var length && length > _options.MaxMessageBytes
        ? TooLargeReason(length)
        : null;

    private string TooLargeReason(int length) => $"message too large: {length} bytes serialized, the limit is {_options.MaxMessageBytes}";

    /// <summary>
    /// Publishes <paramref name="rows"/> on <paramref name="channel"/> in envelopes, each to its lane's queue, and waits for
    /// every confirm; returns the rows too large for the broker, unpublished, with the reason. The claim's batch and a
    /// fan-out page both end here; the claim's messages carry when it was claimed (<paramref name="claimedAt"/>).
    /// </summary>
    internal async Task<List<(OutboxRow Row, string Reason)>> PublishAsync(
        IChannel channel, IReadOnlyList<OutboxRow> rows, Activity? batch, CancellationToken timeout, DateTimeOffset? claimedAt = null)
    {
        var publishes = new List<Task>(rows.Count);
        var spans = ProducerTracing.Enabled ? new List<(Activity Span, Task Confirm)>(rows.Count) : null;
        var rejects = new List<(OutboxRow Row, string Reason)>();
        var envelope = new EnvelopeBuilder(_options.EnvelopeSize, _options.MaxMessageBytes, claimedAt);
        try
        {
            foreach (var row in rows)
            {
                byte[] body = MessageSerializer.Serialize(row.ToMessage());
                if (body.Length > _options.MaxMessageBytes)
                {
                    rejects.Add((row, TooLargeReason(body.Length)));
                    continue;
                }

                // Routed by the row's own priority: urgent rows to the urgent lane's queue, all others to the work queue.
                string queue = row.IsUrgent ? _rabbit.UrgentQueue : _rabbit.Queue;
                if (!envelope.Fits(queue, body))
                {
                    publishes.Add(Publish(channel, envelope, batch, spans, timeout));
                }

                envelope.Add(queue, row, body, tracing.StartPublish(row, batch));
                Activity.Current = batch;
            }

            if (!envelope.IsEmpty)
            {
                publishes.Add(Publish(channel, envelope, batch, spans, timeout));
            }

            // Counted in notifications, whatever the envelopes: the metrics compare with claimed, committed and delivered.
            metrics.Published(rows.Count - rejects.Count);
            await Task.WhenAll(publishes).WaitAsync(timeout);
        }
        finally
        {
            if (spans is not null)
            {
                ProducerTracing.EndPublishes(spans);
            }
        }

        return rejects;
    }

    // Publishes what the builder holds (one notification as a plain message, more as an envelope) and empties it.
    private Task Publish(IChannel channel, EnvelopeBuilder envelope, Activity? batch, List<(Activity, Task)>? spans, CancellationToken cancellationToken)
    {
        var (queue, body, properties, carried) = envelope.Take();
        Activity.Current = batch;

        // With confirm tracking on, each task completes when the broker confirms; a nack or a
        // mandatory return fails it with a PublishException.
        var publish = channel.BasicPublishAsync(_rabbit.Exchange, queue, mandatory: true, properties, body, cancellationToken).AsTask();
        foreach (var span in carried)
        {
            spans?.Add((span, publish));
        }

        return publish;
    }
}
