using System.Diagnostics;
using System.Globalization;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;

namespace Notifications.Harness;

/// <summary>
/// The stage ceilings, each stage alone on the machine with the same message as the pipeline: the broker
/// (publish with confirms + consume with acks), the database claim (claim-and-delete batches, commit),
/// and SMTP (the project's SmtpEmailSender on H connections to smtp-sink), or for <c>--channel webhook|push</c> the
/// receiver alone (<see cref="HttpReceiverCeiling"/>).
/// </summary>
internal sealed class CeilingRunner(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker)
{
    public async Task<int> RunOnlyAsync(string name)
    {
        var measured = await MeasureAsync(options.Handlers[0] * options.Consumers);
        ResultsReport.PrintCeilings(measured, run: null);
        ResultsReport.Write(env.OutputDirectory, name, new { options = RunCommand.Describe(options), ceilings = measured }, []);
        return 0;
    }

    /// <param name="smtpConnections">SMTP connections of the SMTP ceiling; for webhook and push, the receiver's concurrent senders.</param>
    public async Task<IReadOnlyList<CeilingResult>> MeasureAsync(int smtpConnections)
    {
        var results = new List<CeilingResult>
        {
            await new BrokerCeiling(broker.Connection, options).MeasureAsync($"{options.Queue}.ceiling"),
            await MeasureClaimAsync(),
            options.Channel == NotificationChannels.Email
                ? await SmtpCeiling.MeasureAsync(env.SmtpSink, options.SmtpPort + 1, smtpConnections, options.CeilingDuration)
                : await HttpReceiverCeiling.MeasureAsync(env, options, smtpConnections),
        };
        if (options.Sender == "simulated")
        {
            // Handlers x consumers sends of 10 ms each at once: the simulated sender's own limit.
            int concurrent = options.Handlers[0] * options.Consumers;
            results.Add(new CeilingResult("sender", $"simulated 10 ms x {concurrent} handlers (computed)", concurrent * 100L, 1));
        }

        return results;
    }

    private async Task<CeilingResult> MeasureClaimAsync()
    {
        int batch = options.Batch[0];
        int loops = Math.Max(1, options.Producers);
        Console.WriteLine($"==> ceiling: DB claim-and-delete, {loops} loop(s), batches of {batch}, {options.CeilingDuration.TotalSeconds:F0} s");
        await db.ResetAsync();
        await db.SeedAsync(options.Rows);
        var store = new PostgresOutboxStore(db.DataSource, new DatabaseOptions { ConnectionString = db.ConnectionString });
        long claimed = 0;
        var clock = Stopwatch.StartNew();
        await Task.WhenAll(Enumerable.Range(0, loops).Select(_ => Task.Run(async () =>
        {
            while (clock.Elapsed < options.CeilingDuration)
            {
                await using var claim = await store.ClaimAsync(OutboxLanes.Standard, batch, CancellationToken.None);
                if (claim.Rows.Count == 0)
                {
                    return;
                }

                await claim.CommitAsync(CancellationToken.None);
                Interlocked.Add(ref claimed, claim.Rows.Count);
            }
        })));
        var result = new CeilingResult("db-claim", $"claim+delete+commit, batch {batch}, {loops} loop(s)", claimed, clock.Elapsed.TotalSeconds);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {claimed:N0} rows in {result.Seconds:F1} s = {result.PerMinute:N0}/min"));
        await db.ResetAsync();
        return result;
    }
}
