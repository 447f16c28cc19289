namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The dead-letter path's crash window: a consumer killed after the <c>dead_letter</c> row and before its publish. The
/// redelivered copy has the same attempt, so the same key; it finds the row and publishes that dead letter, even when its
/// address is suppressed meanwhile (scenario 26's failure at 10,000 rows: rows left without a message).
/// </summary>
[Collection("services")]
[Trait("Category", "Outage")]
public sealed class DeadLetterWindowTests
{
    [Fact]
    public async Task DeadLetterAsync_ConsumerKilledBetweenRowAndPublish_NextConsumerPublishesThatRow()
    {
        await using var run = await ChaosRun.StartAsync("AtLeastOnce", count: 300);
        // Every recipient refused for good: each address suppressed, then its message dead-lettered.
        await run.Sink.RestartAsync("-f RCPT");
        run.StartProducer();
        var victim = run.StartConsumer(("Faults:KillAt", "after-dead-letter-row:50"));
        await ChaosRun.WaitExitAsync(victim);
        run.Killed(victim);
        run.StartConsumer();
        await run.DrainAsync();

        // The relay's permanent refusal is this run's fault: each address suppressed and its message dead-lettered, as in 13 and 26.
        var verdict = await run.JudgeAsync(0, "consumer killed between the dead-letter row and its publish", ChaosScenarios.CausesOf(26));

        var table = verdict.DeadLetterTable!;
        Assert.True(table.Agrees, table.ToString());
        Assert.Equal((0, 0, table.Rows), (table.RowsWithoutMessage, table.WithoutRow, table.Keys));
        Assert.True(table.Rows >= 50, table.ToString());
        Assert.True(verdict.Passed, verdict.ToString());
    }
}
