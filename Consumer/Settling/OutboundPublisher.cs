using System.Globalization;
using Notifications.Consumer.Pipeline;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using RabbitMQ.Client;
using Headers = Notifications.Consumer.Pipeline.Headers;

namespace Notifications.Consumer.Settling;

/// <summary>
/// Publishes retries and dead letters from the consumer, persistent and mandatory with confirms; the
/// original is acked only after the copy is confirmed, so a crash in between duplicates, never loses.
/// </summary>
internal sealed class OutboundPublisher(IConnection connection, RabbitMqOptions rabbit, TimeProvider time, DeadLetterRecorder deadLetters,
    FaultInjector faults)
    : IAsyncDisposable
{
    private static readonly TimeSpan PublishTimeout = TimeSpan.FromSeconds(30);
    // A park is never shorter: a destination turning sends away for a moment is not asked again at once.
    private static readonly TimeSpan MinimumPark = TimeSpan.FromMilliseconds(100);
    private readonly SemaphoreSlim _open = new(1, 1);
    private PublisherChannel? _channel;

    /// <summary>Puts the delivery into its lane's delay queue of its <paramref name="attempt"/>-th retry.</summary>
    public Task RetryAsync(Delivery delivery, int attempt, CancellationToken cancellationToken)
    {
        var headers = CopyHeaders(delivery);
        headers[Headers.Attempt] = attempt + 1;
        // Jitter: each copy expires after 80-100 % of the queue's delay, so retries of a burst of
        // failures do not all return at the same instant. (Per-message expiry only fires at the head of
        // the queue; with a fixed delay per queue that costs at most the 20 % spread.)
        var delay = rabbit.RetryDelays[attempt - 1] * (0.8 + (0.2 * Random.Shared.NextDouble()));
        string expiration = ((long)delay.TotalMilliseconds).ToString(CultureInfo.InvariantCulture);
        return PublishAsync(RabbitMqOptions.RetryQueue(delivery.Source.Lane.RetriesVia, attempt), delivery, headers, cancellationToken, expiration);
    }

    /// <summary>
    /// Parks the delivery for <paramref name="wait"/> with the same attempt (headers unchanged), in its lane's delay queues
    /// (<see cref="ParkingQueue"/>), from where it returns to the work queue. For a message whose destination turns sends
    /// away for now (its breaker open, a Retry-After pause) while the consumer goes on with the others' messages. Without
    /// delay queues it goes to the work queue's tail.
    /// </summary>
    public Task ParkAsync(Delivery delivery, TimeSpan wait, CancellationToken cancellationToken)
    {
        if (rabbit.RetryDelays.Length == 0)
        {
            return ReturnAsync(delivery, cancellationToken);
        }

        var (queue, expiration) = ParkingQueue(delivery.Source.Lane.RetriesVia, wait);
        return PublishAsync(queue, delivery, CopyHeaders(delivery), cancellationToken, expiration);
    }

    /// <summary>
    /// Parks some items of one envelope for <paramref name="wait"/> as one message with the envelope's headers (the same
    /// attempt): a new envelope of them, or the item itself when it is one.
    /// </summary>
    public Task ParkAsync(IReadOnlyList<Delivery> items, IDictionary<string, object?>? envelopeHeaders, TimeSpan wait, CancellationToken cancellationToken)
    {
        var first = items[0];
        if (items.Count == 1 || rabbit.RetryDelays.Length == 0)
        {
            return items.Count == 1 ? ParkAsync(first, wait, cancellationToken) : ReturnAsync(items, envelopeHeaders, cancellationToken);
        }

        var (queue, expiration) = ParkingQueue(first.Source.Lane.RetriesVia, wait);
        var body = EnvelopeSerializer.Pack(items.Select(i => i.Body).ToArray());
        var headers = envelopeHeaders is null ? [] : new Dictionary<string, object?>(envelopeHeaders);
        return PublishAsync(queue, MessageSerializer.ContentType, EnvelopeSerializer.EnvelopeType, null, body, headers, cancellationToken, expiration);
    }

    // The shortest delay queue that holds a message at least wait (the longest when none does), with wait as its expiration:
    // it returns when wait is over, or, behind a message that expires later, at the latest after that queue's own delay.
    private (string Queue, string Expiration) ParkingQueue(string workQueue, TimeSpan wait)
    {
        wait = TimeSpan.FromTicks(Math.Max(wait.Ticks, MinimumPark.Ticks));
        int queue = rabbit.RetryDelays.Length;
        for (int i = rabbit.RetryDelays.Length; i >= 1; i--)
        {
            if (rabbit.RetryDelays[i - 1] >= wait)
            {
                queue = i;
            }
        }

        return (RabbitMqOptions.RetryQueue(workQueue, queue), ((long)wait.TotalMilliseconds).ToString(CultureInfo.InvariantCulture));
    }

    /// <summary>Puts a copy at the tail of its lane's work queue with the same attempt (headers unchanged).</summary>
    public Task ReturnAsync(Delivery delivery, CancellationToken cancellationToken) =>
        PublishAsync(delivery.Source.Lane.Queue, delivery, CopyHeaders(delivery), cancellationToken);

    /// <summary>
    /// Puts some items of one envelope at the tail of their lane's work queue as one message with the envelope's headers
    /// (the same attempt): a new envelope of them, or the item itself when it is one.
    /// </summary>
    public Task ReturnAsync(IReadOnlyList<Delivery> items, IDictionary<string, object?>? envelopeHeaders, CancellationToken cancellationToken)
    {
        var first = items[0];
        if (items.Count == 1)
        {
            return ReturnAsync(first, cancellationToken);
        }

        var body = EnvelopeSerializer.Pack(items.Select(i => i.Body).ToArray());
        var headers = envelopeHeaders is null ? [] : new Dictionary<string, object?>(envelopeHeaders);
        return PublishAsync(first.Source.Lane.Queue, MessageSerializer.ContentType, EnvelopeSerializer.EnvelopeType, null, body, headers, cancellationToken);
    }

    /// <summary>Moves the delivery to another queue (a rate-limit lane) with the same attempt (headers unchanged).</summary>
    public Task ForwardAsync(Delivery delivery, string queue, CancellationToken cancellationToken) =>
        PublishAsync(queue, delivery, CopyHeaders(delivery), cancellationToken);

    /// <summary>
    /// Moves the delivery to the dead-letter queue with <paramref name="reason"/>, recorded in the database first
    /// under its attempt's key (a crash in between leaves a record and the original, whose redelivered copy
    /// finishes that dead letter: <see cref="FinishDeadLetterAsync"/>).
    /// </summary>
    public async Task DeadLetterAsync(Delivery delivery, string reason, CancellationToken cancellationToken)
    {
        var record = await deadLetters.RecordAsync(delivery, reason, time.GetUtcNow(), cancellationToken);
        faults.Reached("after-dead-letter-row");
        await PublishDeadLetterAsync(delivery, record, cancellationToken);
    }

    /// <summary>
    /// Publishes the dead letter already recorded for the delivery's attempt, if any, with its key, reason, attempts and
    /// instant; returns false when there is none.
    /// </summary>
    public async Task<bool> FinishDeadLetterAsync(Delivery delivery, CancellationToken cancellationToken)
    {
        if (await deadLetters.FindAsync(delivery, cancellationToken) is not { } record)
        {
            return false;
        }

        await PublishDeadLetterAsync(delivery, record, cancellationToken);
        return true;
    }

    /// <summary>
    /// Publishes a live notification's frame to the live exchange (<see cref="RabbitMqOptions.LiveExchange"/>) under its
    /// subscriber, for the gateway nodes holding the subscriber's connections. Not mandatory and not persistent: unroutable
    /// means no app of the subscriber is connected, and the pending row is what lasts (docs/live.md).
    /// </summary>
    public Task PublishLiveAsync(string subscriber, long id, byte[] frame, bool atMostOnce, CancellationToken cancellationToken)
    {
        var headers = new Dictionary<string, object?> { [LiveFrames.AtMostOnceHeader] = atMostOnce };
        return PublishAsync(subscriber, "application/json", null, id.ToString(CultureInfo.InvariantCulture), frame, headers, cancellationToken,
            exchange: rabbit.LiveExchange, mandatory: false, persistent: false);
    }

    /// <summary>Moves a dead letter the broker made, already recorded, from the dead-letter inbox to the dead-letter queue.</summary>
    public Task MoveToDeadLetterQueueAsync(DeadLetterInbox.InboxItem item, CancellationToken cancellationToken) =>
        PublishAsync(rabbit.DeadLetterQueue, item.ContentType, item.Type, item.MessageId, item.Body, item.Headers, cancellationToken);

    private Task PublishDeadLetterAsync(Delivery delivery, DeadLetterRecord record, CancellationToken cancellationToken)
    {
        var headers = CopyHeaders(delivery);
        headers[Headers.DeadKey] = record.Key!.Value.ToString();
        headers[Headers.DeadReason] = record.Reason;
        headers[Headers.DeadAttempts] = record.Attempts;
        headers[Headers.DeadAt] = record.StoredAt.ToUnixTimeMilliseconds();
        return PublishAsync(rabbit.DeadLetterQueue, delivery, headers, cancellationToken);
    }

    public async ValueTask DisposeAsync()
    {
        if (_channel is not null)
        {
            await _channel.Channel.DisposeAsync();
        }

        _open.Dispose();
    }

    private Task PublishAsync(
        string queue, Delivery delivery, Dictionary<string, object?> headers, CancellationToken cancellationToken, string? expiration = null) =>
        // An item leaves its envelope as a message of its own: the envelope's id is not its id.
        PublishAsync(queue, delivery.ContentType, delivery.Type, delivery.Envelope is null ? delivery.MessageId : null, delivery.Body, headers,
            cancellationToken, expiration);

    private async Task PublishAsync(
        string queue, string? contentType, string? type, string? messageId, byte[] body, Dictionary<string, object?> headers,
        CancellationToken cancellationToken, string? expiration = null, string? exchange = null, bool mandatory = true, bool persistent = true)
    {
        var channel = await EnterChannelAsync(cancellationToken);
        var properties = new BasicProperties
        {
            Persistent = persistent,
            ContentType = contentType,
            Type = type,
            MessageId = messageId,
            Headers = headers,
            Expiration = expiration,
        };
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(PublishTimeout);
        try
        {
            await channel.Channel.BasicPublishAsync(exchange ?? rabbit.Exchange, queue, mandatory, properties, body, timeout.Token);
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            // A closed channel, a nack or a return (queue deleted): the next publish opens a fresh channel and declares again
            // (a quorum queue of RabbitMQ 3.10 keeps nacking a channel it refused once, even after its length limit is lifted).
            // The publishes in flight on this one keep it until they have their answers.
            await RetireAsync(channel);
            throw new IOException(string.Create(CultureInfo.InvariantCulture, $"publishing to '{queue}' failed: {ex.Message}"), ex);
        }
        finally
        {
            await channel.ExitAsync();
        }
    }

    // The current channel, its publish counted in; one retired meanwhile is passed over.
    private async Task<PublisherChannel> EnterChannelAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            var channel = await GetChannelAsync(cancellationToken);
            if (channel.TryEnter())
            {
                return channel;
            }
        }
    }

    private async Task<PublisherChannel> GetChannelAsync(CancellationToken cancellationToken)
    {
        if (_channel is { IsUsable: true } open)
        {
            return open;
        }

        await _open.WaitAsync(cancellationToken);
        try
        {
            if (_channel is { IsUsable: true } opened)
            {
                return opened;
            }

            if (_channel is { } closed)
            {
                await closed.RetireAsync();
            }

            var channel = await connection.CreateChannelAsync(
                new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true,
                    outstandingPublisherConfirmationsRateLimiter: null),
                cancellationToken);
            await RabbitTopology.DeclareAsync(channel, rabbit, cancellationToken);
            _channel = new PublisherChannel(channel);
            return _channel;
        }
        finally
        {
            _open.Release();
        }
    }

    private async Task RetireAsync(PublisherChannel failed)
    {
        await _open.WaitAsync();
        try
        {
            if (ReferenceEquals(_channel, failed))
            {
                _channel = null;
            }
        }
        finally
        {
            _open.Release();
        }

        await failed.RetireAsync();
    }

    // An envelope item's own headers lack its envelope's stamps: its copy carries them on, for the notification's story.
    private static Dictionary<string, object?> CopyHeaders(Delivery delivery)
    {
        var headers = delivery.Headers is null ? [] : new Dictionary<string, object?>(delivery.Headers);
        Restamp(headers, PublishedAtHeader.ClaimedName, delivery.ClaimedAt);
        Restamp(headers, PublishedAtHeader.Name, delivery.PublishedAt);
        return headers;
    }

    private static void Restamp(Dictionary<string, object?> headers, string name, DateTimeOffset? at)
    {
        if (at is { } stamp)
        {
            headers.TryAdd(name, stamp.ToUnixTimeMilliseconds());
        }
    }
}
