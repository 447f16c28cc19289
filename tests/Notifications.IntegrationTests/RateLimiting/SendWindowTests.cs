using System.Diagnostics;
using Dapper;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Notifications.Consumer.RateLimiting;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Hosting;
using Npgsql;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.RateLimiting;

/// <summary>
/// The send window of a rate limit on the real PostgreSQL (issue 27, item 19): a send is let in only while fewer than the
/// window's size of the fleet's sends are in flight or ended within the last second, so no second holds more ends than
/// that, however long each send takes; an end never recorded (a dead process) counts until its send timeout; a full window
/// says how long until its oldest end leaves it; and the window lets the rate through.
/// </summary>
[Collection("services")]
[Trait("Category", "Pace")]
public sealed class SendWindowTests(ITestOutputHelper output) : IAsyncDisposable
{
    private const string Key = "domain:window.test";
    private static readonly TimeSpan Long = TimeSpan.FromMinutes(2);
    private readonly NpgsqlDataSource _dataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);

    [Fact]
    public async Task ConcurrentSendersOfVaryingLength_NoSecondHoldsMoreEndsThanTheWindow_AndTheWindowFills()
    {
        await SinkArrivals.ClearLimitsAsync();
        var store = Store();
        const int size = 20;
        await store.LeaseAsync(Key, 1, TimeSpan.FromMilliseconds(50), TimeSpan.Zero, CancellationToken.None);
        var run = TimeSpan.FromSeconds(3);
        var clock = Stopwatch.StartNew();

        // 8 senders as fast as the window lets them, each send 0-80 ms long (a relay that answers at once or late): without
        // the window the ends of a second would be as many as the senders finish.
        var ends = await Task.WhenAll(Enumerable.Range(0, 8).Select(sender => Task.Run(async () =>
        {
            var mine = new List<TimeSpan>();
            var random = new Random(sender);
            while (clock.Elapsed < run)
            {
                var entry = await store.EnterWindowAsync(Key, size, Long, CancellationToken.None);
                if (entry.Id is not { } id)
                {
                    Assert.InRange(entry.Wait, TimeSpan.FromMilliseconds(1), TimeSpan.FromSeconds(1));
                    await Task.Delay(entry.Wait);
                    continue;
                }

                await Task.Delay(random.Next(0, 80));
                mine.Add(clock.Elapsed);   // the server's answer: before the end is recorded
                await store.LeaveWindowAsync([id], CancellationToken.None);
            }

            return mine;
        })));

        var all = ends.SelectMany(e => e).Order().ToList();
        int busiest = all.Select((end, i) => all.Skip(i).TakeWhile(later => later - end < TimeSpan.FromSeconds(1)).Count()).Max();
        output.WriteLine($"{all.Count} sends ended in {run.TotalSeconds:F0} s; most in a sliding second: {busiest} (window {size})");
        Assert.True(busiest <= size, $"{busiest} sends ended within one second (window {size})");
        // The window lets its rate through: 3 s at 20 a second, less the first sends' lengths and the round trips.
        Assert.True(all.Count >= 2 * size, $"only {all.Count} sends in {run.TotalSeconds:F0} s (window {size} a second)");
        // What left the window is deleted as the senders go: the table holds about one second's sends.
        Assert.InRange(await CountAsync(), 1, 2 * size);
    }

    [Fact]
    public async Task FullWindow_SaysHowLongUntilItsOldestEndLeaves_AndAnEndNeverRecordedCountsUntilItsSendTimeout()
    {
        await SinkArrivals.ClearLimitsAsync();
        var store = Store();
        await store.LeaseAsync(Key, 1, TimeSpan.FromSeconds(1), TimeSpan.Zero, CancellationToken.None);

        // A window of 1: one send ended just now holds the next back until a second after its end. Judged by the time the two
        // statements took, not assumed: a box that stalled for a second between them would rightly let the next one in.
        var first = await store.EnterWindowAsync(Key, 1, Long, CancellationToken.None);
        Assert.NotNull(first.Id);
        var sinceEnd = Stopwatch.StartNew();
        await store.LeaveWindowAsync([first.Id!.Value], CancellationToken.None);
        var held = await store.EnterWindowAsync(Key, 1, Long, CancellationToken.None);
        var between = sinceEnd.Elapsed;
        if (between < TimeSpan.FromMilliseconds(900))
        {
            Assert.Null(held.Id);
            Assert.InRange(held.Wait, TimeSpan.FromSeconds(1) - between - TimeSpan.FromMilliseconds(1), TimeSpan.FromSeconds(1));
        }

        var second = await Eventually.WaitAsync(() => store.EnterWindowAsync(Key, 1, TimeSpan.FromSeconds(2), CancellationToken.None),
            e => e.Id is not null, TimeSpan.FromSeconds(10), "let in after the oldest end left the window");
        long secondStart = await StartedAsync(second.Id!.Value);

        // Its end is never recorded (its process died): the window stays full while it may be in flight (2 s here), then a
        // second as if it had ended then — with a short retry meanwhile, since no end is known.
        var blocked = await store.EnterWindowAsync(Key, 1, Long, CancellationToken.None);
        if (blocked.Id is null)
        {
            Assert.Equal(WindowRow.InFlightRetry, blocked.Wait);
        }

        var third = blocked.Id is not null ? blocked : await Eventually.WaitAsync(() => store.EnterWindowAsync(Key, 1, Long, CancellationToken.None),
            e => e.Id is not null, TimeSpan.FromSeconds(15), "let in after the dead send's time ran out");
        // By the database's clock, which the window keeps: not before the dead send's 2 s and the second after them.
        long waited = await StartedAsync(third.Id!.Value) - secondStart;
        Assert.True(waited >= 3_000_000, $"let in {waited / 1000} ms after the dead send, while it counted");
        Assert.NotEqual(second.Id, first.Id);
    }

    [Fact]
    public async Task Limiter_AboveSendWindowUpTo_HasNoWindow_AndTheSizeIsTheRateInAWholeSecondRoundedUp()
    {
        var options = new RateLimitOptions { SendWindowUpTo = 100 };
        using var limiter = new FleetRateLimiter(Store(), new RateLimitSettings(Options.Create(options)), TimeProvider.System, NullLogger<FleetRateLimiter>.Instance);
        Assert.Null(await limiter.EnterWindowAsync("domain:fast.test", new Rate(101, TimeSpan.FromSeconds(1)), CancellationToken.None));
        // The rate × (1 s + SlotTolerance): the bound the slots keep for the starts (× 1.1 at the default 100 ms).
        var tolerance = new RateLimitOptions().SlotTolerance;
        Assert.Equal(220, FleetRateLimiter.WindowSize(new Rate(200, TimeSpan.FromSeconds(1)).Interval, tolerance));
        Assert.Equal(55, FleetRateLimiter.WindowSize(new Rate(50, TimeSpan.FromSeconds(1)).Interval, tolerance));
        Assert.Equal(7, FleetRateLimiter.WindowSize(new Rate(20_000, TimeSpan.FromHours(1)).Interval, tolerance));
        Assert.Equal(1, FleetRateLimiter.WindowSize(new Rate(0.5, TimeSpan.FromSeconds(1)).Interval, tolerance));
    }

    public async ValueTask DisposeAsync() => await _dataSource.DisposeAsync();

    private PostgresRateLimitStore Store() =>
        new(_dataSource, new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema });

    private static async Task<long> StartedAsync(long id)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>($"SELECT started_us FROM {TestDatabase.Schema}.rate_limit_send WHERE id = @id", new { id });
    }

    private static async Task<long> CountAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {TestDatabase.Schema}.rate_limit_send WHERE name = @Key", new { Key });
    }
}
