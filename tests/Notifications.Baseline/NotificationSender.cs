using System.Text;
using MimeKit;
using Notifications.Shared.Contract;
using Npgsql;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;

namespace Notifications.Baseline;

/// <summary>
/// The original's NotificationSender: its own channel with BasicQos(0, prefetch, false), one consumer on the
/// work queue, and for each message, strictly in sequence: deserialize, check the delivery log, send, log,
/// BasicAck of that one delivery tag.
/// </summary>
internal sealed class NotificationSender(int number, IChannel channel, BaselineOptions options, DeliveryLog log, BaselineStats stats) : IAsyncDisposable
{
    private static readonly TimeSpan FailurePause = TimeSpan.FromSeconds(1);
    private readonly SmtpConnection _smtp = new(options);
    private readonly SemaphoreSlim _inHand = new(1, 1);
    private readonly List<double> _latencies = stats.NewLatencyList();
    private readonly CancellationTokenSource _stopping = new();
    private string? _consumerTag;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        await channel.BasicQosAsync(0, options.Prefetch, global: false, cancellationToken);
        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += OnMessageAsync;
        _consumerTag = await channel.BasicConsumeAsync(options.RabbitMq.Queue, autoAck: false, consumer, cancellationToken);
    }

    /// <summary>Takes no new message and waits for the one in hand; the unacked rest returns to the queue when the channel closes.</summary>
    public async Task StopAsync()
    {
        await _stopping.CancelAsync();
        if (_consumerTag is not null && channel.IsOpen)
        {
            await channel.BasicCancelAsync(_consumerTag);
        }

        await _inHand.WaitAsync();
    }

    public async ValueTask DisposeAsync()
    {
        await _smtp.DisposeAsync();
        await channel.DisposeAsync();
        _inHand.Dispose();
        _stopping.Dispose();
    }

    private async Task OnMessageAsync(object sender, BasicDeliverEventArgs delivery)
    {
        if (_stopping.IsCancellationRequested)
        {
            return;
        }

        try
        {
            await _inHand.WaitAsync(_stopping.Token);
        }
        catch (OperationCanceledException)
        {
            return;
        }

        try
        {
            if (!_stopping.IsCancellationRequested)
            {
                await HandleAsync(delivery);
            }
        }
        finally
        {
            _inHand.Release();
        }
    }

    private async Task HandleAsync(BasicDeliverEventArgs delivery)
    {
        // The message in hand is finished even when the stop comes meanwhile: no token on its steps.
        var none = CancellationToken.None;
        if (!MessageSerializer.TryDeserialize(delivery.Body.Span, out var notification, out string? error))
        {
            await DeadLetterAsync(delivery, error);
            return;
        }

        MimeMessage message;
        try
        {
            message = _smtp.Build(notification);
        }
        catch (Exception ex) when (ex is ArgumentException or ParseException)
        {
            await DeadLetterAsync(delivery, $"unaddressable: {ex.Message}");
            return;
        }

        try
        {
            if (await log.IsSentAsync(notification.Id, none))
            {
                stats.AddDuplicate();
            }
            else
            {
                await _smtp.SendAsync(message, none);
                var now = DateTimeOffset.UtcNow;
                stats.AddDelivered();
                _latencies.Add((now - notification.CreatedAt).TotalMilliseconds);
                await log.RecordSentAsync(notification.Id, notification.CreatedAt, none);
            }
        }
        catch (Exception ex) when (ex is IOException or MailKit.ProtocolException or MailKit.Net.Smtp.SmtpCommandException
            or MailKit.CommandException or NpgsqlException or TimeoutException)
        {
            await Console.Error.WriteLineAsync($"sender {number}: notification {notification.Id} put back in the queue: {ex.GetType().Name}: {ex.Message}");
            stats.AddRequeued();
            await Task.Delay(FailurePause, none);
            await channel.BasicNackAsync(delivery.DeliveryTag, multiple: false, requeue: true, none);
            return;
        }

        await channel.BasicAckAsync(delivery.DeliveryTag, multiple: false, none);
    }

    // Bad input is kept with its reason: published to {Queue}.dead with the project's x-dead-reason header, then acked.
    private async Task DeadLetterAsync(BasicDeliverEventArgs delivery, string reason)
    {
        await Console.Error.WriteLineAsync($"sender {number}: message dead-lettered: {reason}");
        var properties = new BasicProperties
        {
            Persistent = true,
            ContentType = delivery.BasicProperties.ContentType,
            Headers = new Dictionary<string, object?> { ["x-dead-reason"] = Encoding.UTF8.GetBytes(reason) },
        };
        await channel.BasicPublishAsync(options.RabbitMq.Exchange, options.RabbitMq.DeadLetterQueue, mandatory: false, properties, delivery.Body);
        stats.AddDeadLettered();
        await channel.BasicAckAsync(delivery.DeliveryTag, multiple: false);
    }
}
