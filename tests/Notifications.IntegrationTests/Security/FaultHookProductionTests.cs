using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;
using Notifications.Shared.Hosting;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// <c>Faults:KillAt</c> (a self-SIGKILL) in a real producer process in the Production environment: alone it does nothing;
/// with the test-only switch (<see cref="FaultInjector.TestHooksVariable"/>) the same setting kills the process.
/// </summary>
[Collection("services")]
public sealed class FaultHookProductionTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task KillAt_ProductionWithoutTestSwitch_ProducerRunsEveryBatchAndIsNotKilled()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        var ids = await db.InsertAsync(500);

        await using var producer = WorkerProcess.Start("Producer", broker,
            ("DOTNET_ENVIRONMENT", "Production"), ("Faults:KillAt", "before-commit:1"), ("Producer:BatchSize", "50"));
        await producer.WaitWhileRunningAsync(() => db.CountAsync("outbox"), n => n == 0, Patience, "every batch committed");
        await producer.TerminateAsync();
        int exit = await producer.WaitForExitAsync(Patience);

        Assert.Equal(0, exit);
        Assert.Contains("is a test hook and is refused in the Production environment", producer.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("fault injection: SIGKILL", producer.Output, StringComparison.Ordinal);
        Assert.True(await broker.CountAsync(broker.Options.Queue) > 0, "the rows were published");
        Assert.NotEmpty(ids);
    }

    [Fact]
    public async Task KillAt_ProductionWithTestSwitch_ProducerKilledBeforeItsFirstCommit()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        var ids = await db.InsertAsync(500);

        await using var producer = WorkerProcess.Start("Producer", broker,
            ("DOTNET_ENVIRONMENT", "Production"), (FaultInjector.TestHooksVariable, "1"), ("Faults:KillAt", "before-commit:1"), ("Producer:BatchSize", "50"));
        int exit = await producer.WaitForExitAsync(Patience);

        Assert.Equal(137, exit);   // 128 + SIGKILL
        Assert.Contains("fault injection: SIGKILL at before-commit:1", producer.Output, StringComparison.Ordinal);
        Assert.Equal(ids.Count, await db.CountAsync("outbox"));
    }
}
