using System.Diagnostics;
using System.Globalization;
using Npgsql;

namespace Notifications.Harness;

/// <summary>
/// What db/postgres/019's urgent-wake trigger costs the business apps: --connections connections insert single-row
/// transactions for --duration, urgent rows and normal rows, with the trigger enabled and disabled (alternating, the
/// order swapped every run), --runs times; medians and the cost of the trigger per priority. A connection LISTENs
/// meanwhile, as a producer would. Off is no trigger (as migrated); an enabled trigger found is put back after.
/// </summary>
internal sealed class InsertsCommand(HarnessOptions options, BenchDatabase db)
{
    // db/postgres/019's channel (the producer's UrgentListenerService.Channel).
    private const string Channel = "notifications_outbox_urgent";

    public async Task<int> RunAsync()
    {
        bool wasEnabled = await TriggerEnabledAsync();
        var rates = new Dictionary<(string Priority, bool Trigger), List<double>>();
        Console.WriteLine($"inserts: {options.Connections} connections x single-row transactions, {options.Duration.TotalSeconds:F0} s each, {options.Runs} runs");
        try
        {
            for (int run = 1; run <= options.Runs; run++)
            {
                foreach (string priority in options.InsertPriorities)
                {
                    foreach (bool trigger in run % 2 == 1 ? new[] { true, false } : [false, true])
                    {
                        var (rate, notifications) = await MeasureAsync(priority, trigger);
                        rates.TryAdd((priority, trigger), []);
                        rates[(priority, trigger)].Add(rate);
                        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                            $"run {run} {priority,-6} trigger {(trigger ? "on " : "off")}: {rate,8:F0} inserts/s, {notifications} notifications heard"));
                    }
                }
            }
        }
        finally
        {
            await SetTriggerAsync(wasEnabled);
            await db.ResetAsync();
        }

        foreach (string priority in options.InsertPriorities)
        {
            double on = Median(rates[(priority, true)]), off = Median(rates[(priority, false)]);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"median {priority,-6}: trigger on {on:F0}/s, off {off:F0}/s, cost {(1 - (on / off)) * 100:F1} %"));
        }

        return 0;
    }

    private async Task<(double Rate, long Notifications)> MeasureAsync(string priority, bool trigger)
    {
        await SetTriggerAsync(trigger);
        await db.ResetAsync();
        await db.ExecuteAsync("VACUUM ANALYZE notifications.outbox");
        using var stop = new CancellationTokenSource();
        long heard = 0;
        var listener = ListenAsync(() => Interlocked.Increment(ref heard), stop.Token);
        var watch = Stopwatch.StartNew();
        var counts = await Task.WhenAll(Enumerable.Range(0, options.Connections).Select(c => InsertLoopAsync(c, priority, watch)));
        double rate = counts.Sum() / watch.Elapsed.TotalSeconds;
        await Task.Delay(200);  // the last notifications arrive
        await stop.CancelAsync();
        await listener;
        return (rate, Interlocked.Read(ref heard));
    }

    private async Task<long> InsertLoopAsync(int connectionNumber, string priority, Stopwatch watch)
    {
        await using var connection = await db.DataSource.OpenConnectionAsync();
        await using var command = new NpgsqlCommand(
            "INSERT INTO notifications.outbox (recipient, subject, body, priority) VALUES ($1, $2, $3, $4)", connection);
        var (recipient, subject, body) = BenchDatabase.Row(connectionNumber);
        command.Parameters.Add(new NpgsqlParameter { Value = recipient });
        command.Parameters.Add(new NpgsqlParameter { Value = subject });
        command.Parameters.Add(new NpgsqlParameter { Value = body });
        command.Parameters.Add(new NpgsqlParameter { Value = priority });
        await command.PrepareAsync();
        long count = 0;
        while (watch.Elapsed < options.Duration)
        {
            await command.ExecuteNonQueryAsync();  // autocommit: each insert its own transaction
            count++;
        }

        return count;
    }

    private async Task ListenAsync(Action heard, CancellationToken cancellationToken)
    {
        await using var connection = await db.DataSource.OpenConnectionAsync(cancellationToken);
        connection.Notification += (_, _) => heard();
        await using (var listen = new NpgsqlCommand($"LISTEN {Channel}", connection))
        {
            await listen.ExecuteNonQueryAsync(cancellationToken);
        }

        try
        {
            while (!cancellationToken.IsCancellationRequested)
            {
                await connection.WaitAsync(cancellationToken);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // The measurement is over.
        }
    }

    private async Task<bool> TriggerEnabledAsync() =>
        await db.ScalarAsync("""
            SELECT count(*) FROM pg_trigger WHERE tgname = 'outbox_notify_urgent' AND tgenabled <> 'D'
                AND tgrelid = 'notifications.outbox'::regclass
            """) == 1;

    // On: the trigger of db/postgres/019's opt-in; off: no trigger, as migrated.
    private Task SetTriggerAsync(bool enabled) =>
        db.ExecuteAsync(enabled
            ? """
              DROP TRIGGER IF EXISTS outbox_notify_urgent ON notifications.outbox;
              CREATE TRIGGER outbox_notify_urgent AFTER INSERT ON notifications.outbox
                  FOR EACH ROW WHEN (NEW.priority = 'urgent') EXECUTE FUNCTION notifications.outbox_notify_urgent();
              """
            : "DROP TRIGGER IF EXISTS outbox_notify_urgent ON notifications.outbox");

    private static double Median(List<double> values)
    {
        var sorted = values.Order().ToList();
        return sorted[sorted.Count / 2];
    }
}
