using System.Collections.Concurrent;
using System.Diagnostics;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Status;

namespace Notifications.IntegrationTests.ConsoleOperations;

/// <summary>
/// One notification's story after a real run: the producer claims and publishes it, the SMTP server refuses its first
/// attempt, the retry is accepted; the story tells each step with its time, the failure with the server's reply, and the trace.
/// </summary>
[Collection("services")]
public sealed class NotificationStoryPipelineTests
{
    private const string TraceId = "4bf92f3577b34da6a3ce929d0e0e4736";

    // At least once the retry is scheduled by the settler; at most once (the message acked before the send) by the hand-back.
    [Theory]
    [InlineData("AtLeastOnce")]
    [InlineData("AtMostOnce")]
    public async Task Read_SentAfterARefusedAttempt_TellsClaimedPublishedTheFailureDeliveredAndTheTrace(string mode)
    {
        await TestDatabase.CleanAsync();
        // Delays long enough for the server's restart to be done before the retry comes (a retry that still finds it down
        // is one more failed attempt, and the story tells that too).
        await using var broker = await TestBroker.CreateAsync(retryDelays: [TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1)]);
        await using var sink = await SmtpSink.StartAsync("-r RCPT");
        using var spans = new ConsumerSpans();
        long id = await InsertAsync($"00-{TraceId}-00f067aa0ba902b7-01");

        await using (await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:DeliveryMode", mode)))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await Eventually.WaitAsync(() => CountAttemptsAsync(id), n => n > 0, TimeSpan.FromMinutes(1), "a failed attempt recorded");
            await sink.RestartAsync();
            await StatusProbe.WaitForAsync(id, "sent");
        }

        await using var admin = DeadLetterSeed.Admin(broker);
        var story = await admin.Story.ReadAsync(id, 10, CancellationToken.None);
        var (exit, shown) = await StatusProbe.ShowAsync(broker, id);

        var steps = story.Steps.Select(s => s.Step).ToList();
        Assert.Equal(["claimed", "published", "attempt 1 failed"], steps.Take(3));
        Assert.Equal("delivered", steps[^1]);
        Assert.All(story.Steps, s => Assert.NotNull(s.At));
        Assert.True(story.Steps[0].At <= story.Steps[1].At && story.Steps[1].At <= story.Steps[2].At, string.Join("; ", story.Steps));
        Assert.StartsWith("tried again: smtp transient failure 4", story.Steps[2].Detail, StringComparison.Ordinal);
        Assert.Equal(TraceId, story.TraceId);
        Assert.Contains(TraceId, spans.TraceIds);
        Assert.Equal(0, exit);
        Assert.Contains($"trace id:    {TraceId}", shown, StringComparison.Ordinal);
        Assert.Matches(@"\d{4}-\d\d-\d\d \S+\s+attempt 1 failed\s+tried again: smtp transient failure 4", shown);
    }

    private static async Task<long> InsertAsync(string traceParent)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body, traceparent) VALUES ('ana@example.com', 'Hi', 'Hello', @TraceParent) RETURNING id",
            new { TraceParent = traceParent });
    }

    private static async Task<int> CountAttemptsAsync(long id)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<int>($"SELECT count(*) FROM {TestDatabase.Schema}.delivery_attempt WHERE notification_id = @Id", new { Id = id });
    }

    // Both workers traced (as a tracer provider would): the consumer's handling spans' trace ids, as they end.
    private sealed class ConsumerSpans : IDisposable
    {
        private readonly ActivityListener _listener;
        private readonly ConcurrentBag<string> _traceIds = [];

        public ConsumerSpans()
        {
            _listener = new ActivityListener
            {
                ShouldListenTo = source => source.Name is "Notifications.Producer" or "Notifications.Consumer",
                Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
                ActivityStopped = activity =>
                {
                    if (activity.Source.Name == "Notifications.Consumer" && activity.OperationName == "process notification")
                    {
                        _traceIds.Add(activity.TraceId.ToHexString());
                    }
                },
            };
            ActivitySource.AddActivityListener(_listener);
        }

        public IReadOnlyCollection<string> TraceIds => [.. _traceIds];

        public void Dispose() => _listener.Dispose();
    }
}
