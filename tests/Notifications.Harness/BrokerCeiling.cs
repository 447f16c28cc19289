using System.Diagnostics;
using System.Globalization;
using Notifications.Shared.Contract;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace Notifications.Harness;

/// <summary>
/// RabbitMQ alone: P publishers (persistent, mandatory, confirms awaited per batch of B, as the producer
/// does) and K x channels consumers (prefetch Q, manual acks with multiple=true), no database, no SMTP.
/// </summary>
internal sealed class BrokerCeiling(IConnection connection, HarnessOptions options)
{
    public async Task<CeilingResult> MeasureAsync(string queue)
    {
        // Envelopes as the producer makes them: a batch of B rows is B / E messages of E notifications each.
        int envelope = options.Envelope[0];
        int batch = Math.Max(1, options.Batch[0] / envelope);
        int prefetch = options.PrefetchFor(options.Prefetch[0], envelope);
        int consumers = options.Consumers * options.Channels;
        Console.WriteLine($"==> ceiling: RabbitMQ, {options.Producers} publisher(s) batch {batch} messages of {envelope} notification(s), "
            + $"{consumers} consumer channel(s) prefetch {prefetch}, {options.CeilingDuration.TotalSeconds:F0} s");
        await using (var setup = await connection.CreateChannelAsync())
        {
            await setup.QueueDeleteAsync(queue);
            await setup.QueueDeclareAsync(queue, durable: true, exclusive: false, autoDelete: false);
        }

        var (_, _, _, single) = Sample();
        byte[] body = envelope == 1 ? single : EnvelopeSerializer.Pack(Enumerable.Repeat(single, envelope).ToList());
        long consumed = 0;
        using var stop = new CancellationTokenSource();
        var channels = new List<IChannel>();
        for (int i = 0; i < consumers; i++)
        {
            channels.Add(await StartConsumerAsync(queue, prefetch, () => Interlocked.Add(ref consumed, envelope)));
        }

        var publishers = Enumerable.Range(0, options.Producers).Select(_ => PublishAsync(queue, body, batch, stop.Token)).ToArray();
        await Task.Delay(TimeSpan.FromSeconds(1)); // warm up: the window starts with messages flowing
        long start = Interlocked.Read(ref consumed);
        var clock = Stopwatch.StartNew();
        await Task.Delay(options.CeilingDuration);
        long messages = Interlocked.Read(ref consumed) - start;
        double seconds = clock.Elapsed.TotalSeconds;
        await stop.CancelAsync();
        await Task.WhenAll(publishers);
        foreach (var channel in channels)
        {
            await channel.DisposeAsync();
        }

        var result = new CeilingResult("broker", $"publish+confirm, consume+ack, {single.Length} B notifications, {envelope} per message", messages, seconds);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {messages:N0} notifications consumed in {seconds:F1} s = {result.PerMinute:N0}/min"));
        await using var cleanup = await connection.CreateChannelAsync();
        await cleanup.QueueDeleteAsync(queue);
        return result;
    }

    /// <summary>The pipeline's message for a seeded row: the same JSON body the producer publishes.</summary>
    internal static (long Id, string To, string Subject, byte[] Body) Sample()
    {
        var (recipient, subject, text) = BenchDatabase.Row(123_456);
        var message = new NotificationMessage(123_456, recipient, subject, text, false, DateTimeOffset.UtcNow, null);
        return (message.Id, recipient, subject, MessageSerializer.Serialize(message));
    }

    private async Task<IChannel> StartConsumerAsync(string queue, int prefetch, Action counted)
    {
        var channel = await connection.CreateChannelAsync();
        await channel.BasicQosAsync(0, (ushort)prefetch, global: false);
        var consumer = new AsyncEventingBasicConsumer(channel);
        ulong acked = 0;
        ulong every = (ulong)Math.Max(1, Math.Min(64, prefetch / 2));
        consumer.ReceivedAsync += async (_, args) =>
        {
            counted();
            if (args.DeliveryTag - acked >= every)
            {
                acked = args.DeliveryTag;
                await channel.BasicAckAsync(args.DeliveryTag, multiple: true);
            }
        };
        await channel.BasicConsumeAsync(queue, autoAck: false, consumer);
        return channel;
    }

    private async Task PublishAsync(string queue, byte[] body, int batch, CancellationToken stop)
    {
        await using var channel = await connection.CreateChannelAsync(new CreateChannelOptions(
            publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true, outstandingPublisherConfirmationsRateLimiter: null), CancellationToken.None);
        var properties = new BasicProperties { Persistent = true, ContentType = MessageSerializer.ContentType };
        var pending = new List<Task>(batch);
        while (!stop.IsCancellationRequested)
        {
            pending.Clear();
            for (int i = 0; i < batch; i++)
            {
                // Not cancelled mid-batch: the batch's confirms are awaited whole, as the producer does.
                pending.Add(channel.BasicPublishAsync("", queue, mandatory: true, properties, body, CancellationToken.None).AsTask());
            }

            await Task.WhenAll(pending);
        }
    }
}
