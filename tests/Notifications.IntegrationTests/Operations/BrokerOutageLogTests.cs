using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;

namespace Notifications.IntegrationTests.Operations;

/// <summary>
/// A worker process loses its broker connection (closed by the broker) and cannot get back for a few
/// seconds (the vhost refuses connections): it logs the loss once and the return once, with how long it was
/// gone, however many reconnects failed in between, and then works again. In a private vhost, so the
/// fault touches nothing else.
/// </summary>
[Collection("services")]
public sealed partial class BrokerOutageLogTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);
    private static readonly TimeSpan Refused = TimeSpan.FromSeconds(5);

    [Fact]
    public Task Consumer_BrokerLostAndRegained_LogsEachOnceWithTheOutage() =>
        OutageAsync("Consumer", "notifications-consumer", async (db, broker, worker) =>
        {
            await broker.PublishShippedAsync([1]);
            await worker.WaitWhileRunningAsync(() => db.CountLogAsync("sent"), n => n == 1, Patience, "message delivered after the outage");
        });

    [Fact]
    public Task Producer_BrokerLostAndRegained_LogsEachOnceWithTheOutage() =>
        OutageAsync("Producer", "notifications-producer", async (db, broker, worker) =>
        {
            await db.InsertAsync(1);
            await worker.WaitWhileRunningAsync(() => broker.CountAsync(broker.Options.Queue), n => n == 2, Patience, "row published after the outage");
        });

    private static async Task OutageAsync(string project, string clientName, Func<TestDatabase, TestBroker, WorkerProcess, Task> worksAgain)
    {
        var db = await TestDatabase.CleanAsync();
        using var management = BrokerManagement.Create();
        string vhost = $"outage.{Guid.NewGuid():N}"[..19];
        var uri = await management.CreateVhostAsync(vhost);
        try
        {
            string output;
            TimeSpan refused, observed;
            await using (var broker = await TestBroker.CreateAsync(uri))
            await using (var worker = WorkerProcess.Start(project, broker,
                ("Consumer:Sender", "Simulated"), ("Serilog:MinimumLevel:Override:Notifications", "Debug")))
            {
                var connections = await worker.WaitWhileRunningAsync(() => management.ConnectionsAsync(vhost, clientName), c => c.Count == 1, Patience, "worker connected");
                if (project == "Consumer")
                {
                    // The outage this test makes is one of a running consumer: its connection is up before its channels are
                    // (on a loaded box the close came 0.4 s after the connect, mid set-up, and the consumer stopped: a loss
                    // during start-up is another case, docs/tests.md). Wait for its start line.
                    await worker.WaitWhileRunningAsync(() => Task.FromResult(worker.Output), o => o.Contains("Consumer started:", StringComparison.Ordinal), Patience, "consumer started");
                }
                else
                {
                    // Likewise a running producer: one row published before the outage (its channels open, its lanes going). In a
                    // fresh-clone run the close came 0.2 s after the connect, while it opened its first channel; with the
                    // reconnects refused it never published again (2026-11-29, 14:57 UTC): a loss during set-up with the broker
                    // refusing the reconnects is a case of its own, not yet fixed (docs/tests.md).
                    await db.InsertAsync(1);
                    await worker.WaitWhileRunningAsync(() => broker.CountAsync(broker.Options.Queue), n => n == 1, Patience, "a row published before the outage");
                }

                await management.LimitConnectionsAsync(vhost, 0);
                var clock = Stopwatch.StartNew();
                await management.CloseConnectionAsync(connections[0], "outage test");
                await Task.Delay(Refused);
                refused = clock.Elapsed;
                await management.LimitConnectionsAsync(vhost, null);
                await worker.WaitWhileRunningAsync(() => Task.FromResult(worker.Output), o => o.Contains("Broker back after", StringComparison.Ordinal), Patience, "broker back logged");
                observed = clock.Elapsed;
                await worksAgain(db, broker, worker);
                await worker.TerminateAsync();
                Assert.Equal(0, await worker.WaitForExitAsync(TimeSpan.FromSeconds(40)));
                output = worker.Output;
            }

            Assert.True(Regex.Count(output, "Lost the broker") == 1, output);
            Assert.Contains("Lost the broker: CONNECTION_FORCED - outage test (code 320, initiated by \"Peer\")", output, StringComparison.Ordinal);
            var back = Assert.Single(BackLine().Matches(output));
            double seconds = double.Parse(back.Groups[1].Value, CultureInfo.InvariantCulture);
            Assert.InRange(seconds, refused.TotalSeconds - 0.5, observed.TotalSeconds + 0.5);
            // The vhost did refuse the reconnects in between (each a new close): one outage, still two lines.
            Assert.True(Regex.Count(output, "Broker still unreachable: NOT_ALLOWED") >= 1, output);
            Assert.True(output.IndexOf("Lost the broker", StringComparison.Ordinal) < back.Index, output);
        }
        finally
        {
            await management.DeleteVhostAsync(vhost);
        }
    }

    [GeneratedRegex(@"Broker back after (\d+\.\d) s")]
    private static partial Regex BackLine();
}
