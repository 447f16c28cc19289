using System.Net;
using System.Text.RegularExpressions;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.IntegrationTests.Webhooks;
using Notifications.Shared.Hosting;

namespace Notifications.IntegrationTests.AtMostOnce;

/// <summary>
/// At most once, a single message is acked before its send; when the send did not happen, the notification goes back as a
/// copy (a retry). If the broker will not take that copy, the notification must still end with a trace: its mark in the
/// delivery log or a dead letter — never nothing (no mark, no message, no dead letter).
/// </summary>
[Collection("services")]
public sealed class AtMostOnceHandBackTests
{
    private const string Endpoint = "partner-a";
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    // Issue 27 (4): the mark was released before the retry copy was confirmed; the copy was refused, and the fallback (a
    // requeue of a message already acked) did nothing.
    [Theory]
    [InlineData(RabbitQueueType.Classic)]
    [InlineData(RabbitQueueType.Quorum)]
    public async Task RetryCopyRefusedByTheBroker_AtMostOnce_NotificationKeepsItsMark(RabbitQueueType queueType)
    {
        // One delay queue, long enough that nothing in it comes back during the test.
        await using var scene = await WebhookScene.StartAsync(queueType: queueType, retryDelays: [TimeSpan.FromMinutes(10)]);
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        // Not sent for sure (a 429 turns the request away): at most once hands it back through the delay queue.
        scene.Receiver.Script.Next(1, ScriptedAnswer.With(HttpStatusCode.TooManyRequests));
        long id = (await scene.InsertAsync(Endpoint, 1))[0];
        string retryQueue = scene.Broker.Options.RetryQueue(1);
        using var management = BrokerManagement.Create();
        string vhost = BrokerManagement.VhostOf(scene.Broker.Options.Uri);
        string policy = $"{scene.Broker.Options.Queue}-refuse-retries";
        // The delay queue refuses every publish (a nack to the consumer's confirm): it holds a filler and is full with it. A
        // classic queue refuses at its length limit (and trims what is over it), a quorum queue once it is over the limit.
        await scene.Broker.PublishAsync(retryQueue, new RabbitMQ.Client.BasicProperties(), "filler"u8.ToArray());
        await management.SetQueuePolicyAsync(vhost, policy, $"^{Regex.Escape(retryQueue)}$",
            new Dictionary<string, object> { ["max-length"] = queueType == RabbitQueueType.Quorum ? 0 : 1, ["overflow"] = "reject-publish" });
        try
        {
            // The handler tries the refused copy again until the consumer stops (a refusal is the broker's failure, waited out
            // unspent): a short shutdown ends that wait soon after the request was turned away.
            await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:DeliveryMode", "AtMostOnce"),
                ("Consumer:ShutdownTimeout", "00:00:02")))
            await using (await WorkerHost.StartProducerAsync(scene.Broker))
            {
                await Eventually.WaitAsync(() => Task.FromResult(scene.Receiver.CountFor(WebhookScene.Key(id))), n => n == 1, Patience, "the request turned away");
                // Leaving, the consumer gives its handler, still trying the refused copy, two seconds; then the mark stays.
            }
        }
        finally
        {
            await management.DeletePolicyAsync(vhost, policy);
        }

        // The copy was refused: the delay queue holds its filler alone, and no other queue holds anything.
        Assert.Equal(new Dictionary<string, uint> { [retryQueue] = 1 }, await scene.Broker.NonEmptyQueuesAsync());
        await using var connection = await TestDatabase.OpenAsync();
        string? mark = await connection.QuerySingleOrDefaultAsync<string>(
            $"SELECT status FROM {TestDatabase.Schema}.delivery_log WHERE notification_id = @id", new { id });
        var deadLetters = await scene.DeadLetterReasonsAsync(id);
        // Its mark became 'handing_back' before the copy was published: the copy refused, it stays (a later copy takes it over).
        Assert.True(mark is "sending" or "handing_back" || deadLetters.Count > 0,
            $"notification {id} left no trace: no mark (delivery log: {mark ?? "no row"}), no dead letter, no copy in any queue");
        Assert.Equal(1, scene.Receiver.CountFor(WebhookScene.Key(id)));
    }

    // A fresh-clone run lost one notification of 2,000 at most once with no crash and no dead letter (LaneMoveTests). The hand
    // back published its copy and then released the mark: a copy handled before that release found the mark, was taken for a
    // duplicate and acked, and the release then left the notification with no mark and no message. Here each release of a
    // mark takes 3 s (a test trigger on the delivery log), and the copy comes back through a 1 s delay queue.
    [Fact]
    public async Task CopyHandledBeforeTheMarkIsReleased_AtMostOnce_SentOnceAfterAll()
    {
        await using var scene = await WebhookScene.StartAsync(retryDelays: [TimeSpan.FromSeconds(1)]);
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        // Not sent for sure (a 429 turns the request away): at most once hands it back; the copy's request is accepted.
        scene.Receiver.Script.Next(1, ScriptedAnswer.With(HttpStatusCode.TooManyRequests));
        await using var connection = await TestDatabase.OpenAsync();
        string s = TestDatabase.Schema;
        await connection.ExecuteAsync($"""
            CREATE OR REPLACE FUNCTION {s}.test_slow_delete() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_sleep(3); RETURN OLD; END $$;
            CREATE TRIGGER test_slow_delete BEFORE DELETE ON {s}.delivery_log FOR EACH ROW EXECUTE FUNCTION {s}.test_slow_delete();
            """);
        try
        {
            long id = (await scene.InsertAsync(Endpoint, 1))[0];
            await using (await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, ("Consumer:DeliveryMode", "AtMostOnce")))
            await using (await WorkerHost.StartProducerAsync(scene.Broker))
            {
                await Eventually.WaitAsync(() => Task.FromResult(scene.Receiver.CountFor(WebhookScene.Key(id))), n => n == 2, Patience,
                    "the request turned away, then its copy's request");
                await Eventually.WaitAsync(() => connection.QuerySingleOrDefaultAsync<string>(
                        $"SELECT status FROM {s}.delivery_log WHERE notification_id = @id", new { id }), status => status == "sent", Patience,
                    "the copy logged as sent");
            }

            Assert.Empty(await scene.Broker.NonEmptyQueuesAsync());
            Assert.Empty(await scene.DeadLetterReasonsAsync(id));
        }
        finally
        {
            await connection.ExecuteAsync($"DROP TRIGGER IF EXISTS test_slow_delete ON {s}.delivery_log; DROP FUNCTION IF EXISTS {s}.test_slow_delete();");
        }
    }
}
