using Notifications.Shared.Messaging;
using Npgsql;
using RabbitMQ.Client;

namespace Notifications.Baseline;

/// <summary>
/// The original's MessageConsumer: ONE connection to RabbitMQ and N NotificationSenders, one channel each.
/// With Consumer:RunFor it is the original's killswitch: the window opens with the first delivery and the
/// process stops when it closes.
/// </summary>
internal sealed class MessageConsumer(BaselineOptions options)
{
    private static readonly TimeSpan KillSwitchPoll = TimeSpan.FromMilliseconds(20);

    public async Task<int> RunAsync(CancellationToken shutdown)
    {
        var stats = new BaselineStats();
        await using var dataSource = NpgsqlDataSource.Create(options.ConnectionString);
        var log = new DeliveryLog(dataSource, options.Schema);
        var factory = new ConnectionFactory { Uri = options.RabbitMq.Uri, ClientProvidedName = "notifications-baseline" };
        await using var connection = await factory.CreateConnectionAsync(shutdown);
        await using (var setup = await connection.CreateChannelAsync(cancellationToken: shutdown))
        {
            // The same queues as the project's workers declare (idempotent), so either may start first.
            await RabbitTopology.DeclareAsync(setup, options.RabbitMq, shutdown);
        }

        var senders = new List<NotificationSender>();
        try
        {
            for (int i = 0; i < options.Senders; i++)
            {
                var sender = new NotificationSender(i, await connection.CreateChannelAsync(cancellationToken: shutdown), options, log, stats);
                senders.Add(sender);
                await sender.StartAsync(shutdown);
            }

            Console.WriteLine($"Consumer started: original algorithm, {options.Senders} NotificationSenders on one connection, "
                + $"prefetch {options.Prefetch} each, queue {options.RabbitMq.Queue}");
            await KillSwitchAsync(stats, shutdown);
        }
        catch (OperationCanceledException) when (shutdown.IsCancellationRequested)
        {
            // SIGTERM or Ctrl+C.
        }
        finally
        {
            await Task.WhenAll(senders.Select(s => s.StopAsync()));
            foreach (var sender in senders)
            {
                await sender.DisposeAsync();
            }
        }

        if (options.StatsFile is not null)
        {
            await stats.WriteAsync(options.StatsFile);
        }

        Console.WriteLine($"Consumer stopped: {stats.Delivered} delivered, {stats.Duplicates} duplicates skipped, "
            + $"{stats.DeadLettered} dead-lettered, {stats.Requeued} put back"
            + (stats.WindowDelivered is { } window ? $"; {window} in the {stats.Window!.Value.TotalSeconds:F0} s window" : ""));
        return 0;
    }

    /// <summary>Waits for the killswitch window (opened by the first delivery) or, without one, for the shutdown signal.</summary>
    private async Task KillSwitchAsync(BaselineStats stats, CancellationToken shutdown)
    {
        if (options.RunFor is not { } runFor)
        {
            await Task.Delay(Timeout.Infinite, shutdown);
            return;
        }

        while (stats.FirstDeliveredAt is null)
        {
            await Task.Delay(KillSwitchPoll, shutdown);
        }

        var wait = stats.FirstDeliveredAt.Value + runFor - DateTimeOffset.UtcNow;
        if (wait > TimeSpan.Zero)
        {
            await Task.Delay(wait, shutdown);
        }

        stats.CloseWindow(runFor);
    }
}
