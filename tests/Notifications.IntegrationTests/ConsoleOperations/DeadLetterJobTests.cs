using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Data.Operations;

namespace Notifications.IntegrationTests.ConsoleOperations;

/// <summary>Bulk requeue and purge jobs (<c>admin_job</c>) on the real broker and database.</summary>
[Collection("services")]
public sealed class DeadLetterJobTests
{
    private const string Transient = DeadLetterSeed.Transient;
    private const string Invalid = DeadLetterSeed.Invalid;

    [Fact]
    public async Task RequeueGroup_TwoJobsAtOnceOnTheSameGroup_EachDeadLetterArrivesInTheWorkQueueOnce()
    {
        await TestDatabase.CleanAsync();
        await DeadLetterSeed.CleanJobsAsync();
        await using var broker = await TestBroker.CreateAsync();
        var group = Enumerable.Range(1, 1000).Select(i => (long)i).ToList();
        await DeadLetterSeed.PublishAsync(broker, group, Transient);
        await DeadLetterSeed.PublishAsync(broker, [5001, 5002, 5003], Invalid);
        string reasonClass = DeadLetterReasonClass.Of($"{Transient} (notification 1, user1@example.com)");
        await using var first = DeadLetterSeed.Admin(broker);
        await using var second = DeadLetterSeed.Admin(broker);
        long a = await first.Jobs.CreateAsync(AdminJobKinds.Requeue, DeadLetterSelection.Group(reasonClass), "ana", CancellationToken.None);
        long b = await second.Jobs.CreateAsync(AdminJobKinds.Requeue, DeadLetterSelection.Group(reasonClass), "bob", CancellationToken.None);

        var jobs = await Task.WhenAll(
            first.JobRunner("replica-1").RunNextAsync(a, null, CancellationToken.None),
            second.JobRunner("replica-2").RunNextAsync(b, null, CancellationToken.None));

        var arrivals = await DeadLetterSeed.DrainWorkQueueAsync(broker);
        Assert.Equal(group, arrivals.Keys.Order());
        Assert.All(arrivals, pair => Assert.Equal(1, pair.Value));
        Assert.All(jobs, job => Assert.Equal("done", job!.State));
        Assert.Equal(1000, jobs.Sum(job => job!.Done));
        Assert.All(jobs, job => Assert.Equal(job!.Total, job.Done + job.Failed));
        Assert.Equal(3u, await broker.CountAsync(broker.Options.DeadLetterQueue));
        Assert.Equal([5001, 5002, 5003], await DeadLetterSeed.RowsLeftAsync());
    }

    [Fact]
    public async Task PurgeIds_SomeOfAGroup_DeletesThoseAndKeepsTheRestInTheirPlaces()
    {
        await TestDatabase.CleanAsync();
        await DeadLetterSeed.CleanJobsAsync();
        await using var broker = await TestBroker.CreateAsync();
        await DeadLetterSeed.PublishAsync(broker, [11, 12, 13, 14, 15], Transient);
        await using var admin = DeadLetterSeed.Admin(broker);
        long id = await admin.Jobs.CreateAsync(AdminJobKinds.Purge, DeadLetterSelection.Ids([12, 14, 99]), "ana", CancellationToken.None);

        var job = await admin.JobRunner("replica-1").RunNextAsync(id, null, CancellationToken.None);

        Assert.Equal(("done", 2L, 2L, 0L), (job!.State, job.Total!.Value, job.Done, job.Failed));
        Assert.Equal(0u, await broker.CountAsync(broker.Options.Queue));
        var left = await broker.DrainDeadLetterBytesAsync();
        Assert.Equal([11L, 13, 15], left.Select(l => Shared.Contract.MessageSerializer.ReadId(l.Body)!.Value));
        Assert.Equal([11, 13, 15], await DeadLetterSeed.RowsLeftAsync());
    }

    [Fact]
    public async Task RunNext_RunnerStoppedMidJob_LeaseRunsOutAndAnotherRunnerResumesWithWhatIsLeft()
    {
        await TestDatabase.CleanAsync();
        await DeadLetterSeed.CleanJobsAsync();
        await using var broker = await TestBroker.CreateAsync();
        var ids = Enumerable.Range(1, 700).Select(i => (long)i).ToList();
        await DeadLetterSeed.PublishAsync(broker, ids, Transient);
        await using var admin = DeadLetterSeed.Admin(broker);
        long id = await admin.Jobs.CreateAsync(AdminJobKinds.Requeue, DeadLetterSelection.Ids(ids), "ana", CancellationToken.None);
        using var stop = new CancellationTokenSource();

        // The first runner stops (as a process shutting down) once its first batch is persisted.
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => admin.JobRunner("stopped").RunNextAsync(id, async progress =>
        {
            if (progress.Done > 0)
            {
                await stop.CancelAsync();
            }
        }, stop.Token));
        var halfway = await admin.Jobs.GetAsync(id, CancellationToken.None);
        var refused = await admin.JobRunner("too-early").RunNextAsync(id, null, CancellationToken.None);
        await ExpireLeaseAsync(id);
        var resumed = await admin.JobRunner("resumer").RunNextAsync(id, null, CancellationToken.None);

        Assert.Equal("running", halfway!.State);
        Assert.InRange(halfway.Done, 1, 699);
        Assert.Null(refused);
        Assert.Equal(("done", 700L, 700L, 0L), (resumed!.State, resumed.Total!.Value, resumed.Done, resumed.Failed));
        var arrivals = await DeadLetterSeed.DrainWorkQueueAsync(broker);
        Assert.Equal(ids, arrivals.Keys.Order());
        Assert.All(arrivals, pair => Assert.Equal(1, pair.Value));
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));
    }

    [Fact]
    public async Task RequeueGroupCommand_PrintsProgressToOneHundredPercent_AndGroupsListsWhatIsLeft()
    {
        await TestDatabase.CleanAsync();
        await DeadLetterSeed.CleanJobsAsync();
        await using var broker = await TestBroker.CreateAsync();
        await DeadLetterSeed.PublishAsync(broker, Enumerable.Range(1, 450).Select(i => (long)i), Transient);
        await DeadLetterSeed.PublishAsync(broker, [9001, 9002], Invalid);
        string reasonClass = DeadLetterReasonClass.Of($"{Transient} (notification 1, user1@example.com)");

        var before = await Operations.AdminRun.InProcessAsync(broker, "", "dead-letters", "groups");
        var requeue = await Operations.AdminRun.InProcessAsync(broker, "", "dead-letters", "requeue-group", "--group", reasonClass);
        var after = await Operations.AdminRun.InProcessAsync(broker, "", "dead-letters", "groups");
        var jobs = await Operations.AdminRun.InProcessAsync(broker, "", "dead-letters", "jobs");

        Assert.True(before.ExitCode == 0, before.Error);
        Assert.Matches(@"\s+450  \S+ \S+  \S+ \S+  gave up after # attempts: smtp transient failure #: #\.#\.# try again later \(notification #, <address>\)", before.Output);
        Assert.Contains("2 group(s)", before.Output, StringComparison.Ordinal);
        Assert.True(requeue.ExitCode == 0, requeue.Error);
        Assert.Contains("running: 200 of 450 done (44 %)", requeue.Output, StringComparison.Ordinal);
        Assert.Contains("done: 450 of 450 done (100 %), 0 not found", requeue.Output, StringComparison.Ordinal);
        Assert.Contains("1 group(s)", after.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("transient", after.Output, StringComparison.Ordinal);
        Assert.Contains("done: 450 of 450", jobs.Output, StringComparison.Ordinal);
        Assert.Equal(450u, await broker.CountAsync(broker.Options.Queue));
    }

    [Fact]
    public async Task PurgeGroupCommand_NotConfirmed_DeletesNothingAndConfirmedDeletesTheGroup()
    {
        await TestDatabase.CleanAsync();
        await DeadLetterSeed.CleanJobsAsync();
        await using var broker = await TestBroker.CreateAsync();
        await DeadLetterSeed.PublishAsync(broker, [31, 32], Invalid);
        await DeadLetterSeed.PublishAsync(broker, [33], Transient);
        string reasonClass = DeadLetterReasonClass.Of($"{Invalid} (notification 31, user31@example.com)");

        var declined = await Operations.AdminRun.InProcessAsync(broker, "no\n", "dead-letters", "purge-group", "--group", reasonClass);
        var confirmed = await Operations.AdminRun.InProcessAsync(broker, "", "dead-letters", "purge-group", "--group", reasonClass, "--yes");

        Assert.Equal(1, declined.ExitCode);
        Assert.Contains("Aborted: nothing was deleted", declined.Error, StringComparison.Ordinal);
        Assert.True(confirmed.ExitCode == 0, confirmed.Error);
        Assert.Contains("done: 2 of 2 done (100 %)", confirmed.Output, StringComparison.Ordinal);
        Assert.Equal(1u, await broker.CountAsync(broker.Options.DeadLetterQueue));
        Assert.Equal(0u, await broker.CountAsync(broker.Options.Queue));
        Assert.Equal([33], await DeadLetterSeed.RowsLeftAsync());
    }

    private static async Task ExpireLeaseAsync(long id)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"UPDATE {TestDatabase.Schema}.admin_job SET lease_until = now() - interval '1 second' WHERE id = @Id", new { Id = id });
    }
}
