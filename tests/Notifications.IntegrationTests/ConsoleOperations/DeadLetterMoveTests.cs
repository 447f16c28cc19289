using Notifications.Admin.Operations;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;
using Notifications.Shared.Data.Operations;

namespace Notifications.IntegrationTests.ConsoleOperations;

/// <summary>The one requeue implementation past its hold limit, and the job runner hosted as a BackgroundService.</summary>
[Collection("services")]
public sealed class DeadLetterMoveTests
{
    private const string Reason = "gave up after 5 attempts: smtp transient failure 421";

    [Fact]
    public async Task Requeue_MoreLettersNotTakenThanItHolds_TheRestGoToTheTailNoneLostOrDoubled()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        var ids = Enumerable.Range(1, 30).Select(i => (long)i).ToList();
        await DeadLetterSeed.PublishAsync(broker, ids, Reason);
        await using var admin = DeadLetterSeed.Admin(broker);
        await using var connection = await admin.ConnectAsync(CancellationToken.None);

        var result = await new DeadLetterBulk(admin.Broker, admin.DeliveryLog, admin.DeadLetters, admin.DeadLetterGroups) { HoldLimit = 5 }
            .MoveAsync(connection, AdminJobKinds.Requeue, l => l.NotificationId % 2 == 0, null, null, CancellationToken.None);

        Assert.Equal(ids.Where(i => i % 2 == 0), result.Moved.Select(i => i!.Value));
        Assert.Equal(ids.Where(i => i % 2 == 0), (await DeadLetterSeed.DrainWorkQueueAsync(broker)).Keys.Order());
        var left = (await broker.DrainDeadLetterBytesAsync()).Select(l => MessageSerializer.ReadId(l.Body)!.Value).ToList();
        // The five held keep their places at the head; the others went to the tail, in their order.
        Assert.Equal(ids.Where(i => i % 2 == 1), left);
        Assert.Equal(ids.Where(i => i % 2 == 1), await DeadLetterSeed.RowsLeftAsync());
    }

    [Fact]
    public async Task AdminJobService_AJobQueuedLikeTheConsoleDoes_RunsItToDone()
    {
        await TestDatabase.CleanAsync();
        await DeadLetterSeed.CleanJobsAsync();
        await using var broker = await TestBroker.CreateAsync();
        await DeadLetterSeed.PublishAsync(broker, [21, 22, 23], Reason);
        await using var admin = DeadLetterSeed.Admin(broker);
        using var service = new AdminJobService(admin.JobRunner("console-1"), Microsoft.Extensions.Logging.Abstractions.NullLogger<AdminJobService>.Instance);
        await service.StartAsync(CancellationToken.None);

        long id = await admin.Jobs.CreateAsync(AdminJobKinds.Requeue, DeadLetterSelection.Ids([21, 23]), "ana (console)", CancellationToken.None);
        var job = await Eventually.WaitAsync(() => admin.Jobs.GetAsync(id, CancellationToken.None), j => j!.IsFinished, TimeSpan.FromSeconds(30), "the job done");
        await service.StopAsync(CancellationToken.None);

        Assert.Equal(("done", 2L, 2L, "console-1"), (job!.State, job.Done, job.Total!.Value, job.LeaseOwner));
        Assert.Equal([21L, 23], (await DeadLetterSeed.DrainWorkQueueAsync(broker)).Keys.Order());
        Assert.Equal([22], await DeadLetterSeed.RowsLeftAsync());
    }

    [Fact]
    public async Task ListGroups_AGroupAboveTheCountCap_SaysMoreThanAndPagesOnByKeyset()
    {
        await TestDatabase.CleanAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await Dapper.SqlMapper.ExecuteAsync(connection, $"""
                INSERT INTO {TestDatabase.Schema}.dead_letter (notification_id, reason, reason_class, attempts, dead_lettered_at)
                SELECT g, 'big ' || g, 'big #', 1, now() - g * interval '1 second' FROM generate_series(1, {IDeadLetterGroupStore.CountCap + 50}) AS g
                UNION ALL SELECT 900000 + g, 'small ' || g, 'small #', 1, now() FROM generate_series(1, 3) AS g
                """);
        }

        await using var broker = await TestBroker.CreateAsync();
        await using var admin = DeadLetterSeed.Admin(broker);

        var first = Assert.Single(await admin.DeadLetterGroups.ListGroupsAsync(null, 1, CancellationToken.None));
        var second = Assert.Single(await admin.DeadLetterGroups.ListGroupsAsync(first.ReasonClass, 1, CancellationToken.None));
        var none = await admin.DeadLetterGroups.ListGroupsAsync(second.ReasonClass, 1, CancellationToken.None);

        Assert.Equal(("big #", true), (first.ReasonClass, first.IsMore));
        Assert.True(first.LastAt - first.FirstAt > TimeSpan.FromHours(2), $"{first.FirstAt:O} .. {first.LastAt:O}");
        Assert.Equal(("small #", 3L, false), (second.ReasonClass, second.Count, second.IsMore));
        Assert.Empty(none);
    }
}
