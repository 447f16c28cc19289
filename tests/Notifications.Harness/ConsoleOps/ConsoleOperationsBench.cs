using System.Diagnostics;
using System.Globalization;
using Microsoft.Extensions.Configuration;
using Notifications.Admin;
using Notifications.Shared.Data.Operations;

namespace Notifications.Harness.ConsoleOps;

/// <summary>
/// <c>console-ops</c>: the latency of each operation a console page calls (Admin/Operations), against a database seeded at
/// volume by scripts/console-bench (10,000,000 delivery-log rows, 1,000,000 dead letters): each one --runs times after
/// three to warm up, as the admin role's operations run them (one call = what one page does). Prints median, p95 and max.
/// </summary>
internal static class ConsoleOperationsBench
{
    public static async Task<int> RunAsync(HarnessOptions options)
    {
        string database = Environment.GetEnvironmentVariable("NOTIFICATIONS_CONSOLE_BENCH_POSTGRES")
            ?? throw new InvalidOperationException("NOTIFICATIONS_CONSOLE_BENCH_POSTGRES is not set (scripts/console-bench sets it)");
        var settings = new Dictionary<string, string?>
        {
            ["Database:Provider"] = "Postgres",
            ["Database:ConnectionString"] = database,
            ["Database:Schema"] = "notifications",
            ["RabbitMq:Uri"] = "amqp://unused:unused@127.0.0.1:1/",
        };
        await using var admin = new AdminContext(new ConfigurationBuilder().AddInMemoryCollection(settings).Build());
        var groups = await admin.DeadLetterGroups.ListGroupsAsync(null, 500, CancellationToken.None);
        string later = groups[Math.Min(groups.Count - 1, 250)].ReasonClass;
        string big = groups.MaxBy(g => g.Count)!.ReasonClass;
        var firstLetters = await admin.DeadLetterGroups.ListLettersAsync(big, null, 0, 50, CancellationToken.None);
        var (cursorAt, cursorId) = (firstLetters[^1].DeadLetteredAt, firstLetters[^1].Id);
        string[] connected = [.. Enumerable.Range(1, 100).Select(n => string.Create(CultureInfo.InvariantCulture, $"sub-{n * 37}"))];
        var cases = new (string Name, Func<Task<int>> Run)[]
        {
            ("story by id (delivered, of 10M)", async () => (await admin.Story.ReadAsync(5_000_000, 10, CancellationToken.None)).Steps.Count),
            ("story by id (dead-lettered)", async () => (await admin.Story.ReadAsync(10_500_000, 10, CancellationToken.None)).Steps.Count),
            ("find by id", async () => (await admin.Story.FindAsync("7654321", null, null, 20, CancellationToken.None)).Hits.Count),
            ("find by idempotency key", async () => (await admin.Story.FindAsync("order:654321", NotificationSearchKind.IdempotencyKey, null, 20, CancellationToken.None)).Hits.Count),
            ("find by recipient (outbox + deliveries)", async () => (await admin.Story.FindAsync("sub4242@example.com", NotificationSearchKind.Recipient, null, 20, CancellationToken.None)).Hits.Count),
            ("find by subscriber", async () => (await admin.Story.FindAsync("sub-4242", NotificationSearchKind.Subscriber, null, 20, CancellationToken.None)).Hits.Count),
            ("find, any kind, no match", async () => (await admin.Story.FindAsync("nobody@nowhere.example", null, null, 20, CancellationToken.None)).Hits.Count),
            ("dead-letter groups, first page (50)", async () => (await admin.DeadLetterGroups.ListGroupsAsync(null, 50, CancellationToken.None)).Count),
            ("dead-letter groups, a later page (50)", async () => (await admin.DeadLetterGroups.ListGroupsAsync(later, 50, CancellationToken.None)).Count),
            ("jobs, first page (20)", async () => (await admin.Jobs.ListAsync(null, 20, CancellationToken.None)).Count),
            ("a group's letters, first page (50, of 400k)", async () => (await admin.DeadLetterGroups.ListLettersAsync(big, null, 0, 50, CancellationToken.None)).Count),
            ("a group's letters, next page (50)", async () => (await admin.DeadLetterGroups.ListLettersAsync(big, cursorAt, cursorId, 50, CancellationToken.None)).Count),
            ("subscriber by id (+ pending)", async () => (await admin.Subscribers.SearchAsync("sub-4242", CancellationToken.None)).Subscriber!.ContactPoints.Count),
            ("subscriber by email address", async () => (await admin.Subscribers.SearchAsync("SUB4242@example.com", CancellationToken.None)).Subscriber!.ContactPoints.Count),
            ("subscriber, no match", async () => (await admin.Subscribers.SearchAsync("nobody@nowhere.example", CancellationToken.None)).Matches.Count),
            ("topics, first page (50; t1 has 100k)", async () => (await admin.Audiences.ListTopicsAsync(null, 50, CancellationToken.None)).Count),
            ("topics, a later page (50)", async () => (await admin.Audiences.ListTopicsAsync("t500", 50, CancellationToken.None)).Count),
            ("pending counts, 100 connected", async () => (await admin.Live.CountPendingAsync(connected, 1000, CancellationToken.None)).Count),
            ("rate limits (overview)", async () => (await admin.Operations.ListRateLimitsAsync(100, CancellationToken.None)).Count),
        };
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"console-ops: {options.Runs} runs each after 3 warm-up; {groups.Count} groups on the first 500; later page after '{later}'"));
        Console.WriteLine("operation                                   rows   median ms   p95 ms   max ms");
        bool within = true;
        foreach (var (name, run) in cases)
        {
            var (rows, times) = await MeasureAsync(run, options.Runs);
            within &= times[^1] <= 300;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{name,-42} {rows,5} {times[times.Count / 2],11:F1} {times[(int)(times.Count * 0.95)],8:F1} {times[^1],8:F1}"));
        }

        Console.WriteLine(within ? "every operation within 300 ms (max)" : "SOME OPERATION ABOVE 300 ms (max)");
        return within ? 0 : 1;
    }

    private static async Task<(int Rows, List<double> Times)> MeasureAsync(Func<Task<int>> run, int runs)
    {
        int rows = 0;
        for (int i = 0; i < 3; i++)
        {
            rows = await run();
        }

        var times = new List<double>();
        for (int i = 0; i < runs; i++)
        {
            long start = Stopwatch.GetTimestamp();
            rows = await run();
            times.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
        }

        times.Sort();
        return (rows, times);
    }
}
