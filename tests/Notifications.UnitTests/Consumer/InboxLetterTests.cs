using System.Text;
using Notifications.Consumer.DeadLetterInbox;
using Notifications.Shared.Contract;
using RabbitMQ.Client;

namespace Notifications.UnitTests.Consumer;

public sealed class InboxLetterTests
{
    private static readonly DateTimeOffset Now = new(2026, 11, 25, 22, 0, 0, TimeSpan.Zero);
    private static readonly byte[] Envelope = EnvelopeSerializer.Pack(["{\"id\":7}"u8.ToArray(), "{\"id\":8}"u8.ToArray()]);

    [Fact]
    public void Split_EnvelopeDeadByTheBroker_OneDeadLetterPerItemWithTheLatestDeathsReason()
    {
        var items = InboxLetter.Split(Properties(Death("expired", "work.retry.1", 1), Death("delivery_limit", "work", 1, latest: true)), Envelope, Now);

        Assert.Equal([7L, 8L], items.Select(i => i.Record.NotificationId!.Value));
        Assert.All(items, i => Assert.StartsWith("delivery_limit: dead-lettered by the broker from queue 'work'", i.Record.Reason, StringComparison.Ordinal));
        Assert.All(items, i => Assert.Equal(DateTimeOffset.FromUnixTimeSeconds(1_764_000_000), i.Record.DeadLetteredAt));
        Assert.All(items, i => Assert.Equal(3, i.Record.Attempts));
        Assert.Equal(["{\"id\":7}", "{\"id\":8}"], items.Select(i => Encoding.UTF8.GetString(i.Body)));
        Assert.All(items, i => Assert.Equal((MessageSerializer.MessageType, (string?)null), (i.Type, i.MessageId)));
        Assert.All(items, i => Assert.Equal(i.Record.Key.ToString(), i.Headers["x-dead-key"]));
        Assert.All(items, i => Assert.False(i.Headers.ContainsKey(EnvelopeSerializer.ItemTraceParents)));
        Assert.All(items, i => Assert.True(i.Headers.ContainsKey("x-death")));
        Assert.NotEqual(items[0].Record.Key, items[1].Record.Key);
    }

    [Fact]
    public void Split_SameDeadMessageAgain_SameKeysAndInstant()
    {
        var first = InboxLetter.Split(Properties(Death("expired", "work", 1, latest: true)), Envelope, Now);
        var again = InboxLetter.Split(Properties(Death("expired", "work", 1, latest: true)), Envelope, Now.AddMinutes(5));

        Assert.Equal(first.Select(i => (i.Record.Key, i.Record.StoredAt)), again.Select(i => (i.Record.Key, i.Record.StoredAt)));
    }

    [Fact]
    public void Split_DeadAgainLater_NewKeys()
    {
        var first = InboxLetter.Split(Properties(Death("expired", "work", 1, latest: true)), Envelope, Now);
        var later = InboxLetter.Split(Properties(Death("expired", "work", 2, latest: true)), Envelope, Now);

        Assert.Empty(first.Select(i => i.Record.Key).Intersect(later.Select(i => i.Record.Key)));
    }

    [Fact]
    public void Split_NoDeathHeaderNotAnEnvelope_OneDeadLetterWithItsBytesSaidUnknown()
    {
        var item = Assert.Single(InboxLetter.Split(new BasicProperties { ContentType = "text/plain" }, "garbage"u8.ToArray(), Now));

        Assert.Null(item.Record.NotificationId);
        Assert.StartsWith("unknown", item.Record.Reason, StringComparison.Ordinal);
        Assert.Equal(Now, item.Record.DeadLetteredAt);
        Assert.Equal("garbage", Encoding.UTF8.GetString(item.Record.Body!));
    }

    private static BasicProperties Properties(params (Dictionary<string, object?> Entry, bool Latest)[] deaths) => new()
    {
        ContentType = MessageSerializer.ContentType,
        Type = EnvelopeSerializer.EnvelopeType,
        MessageId = "envelope-1",
        Headers = new Dictionary<string, object?>
        {
            ["x-attempt"] = 3,
            [EnvelopeSerializer.ItemTraceParents] = new Dictionary<string, object?>(),
            // The broker keeps the latest death first.
            ["x-death"] = deaths.OrderByDescending(d => d.Latest).Select(d => (object)d.Entry).ToList(),
            ["x-first-death-reason"] = Encoding.UTF8.GetBytes("expired"),
        },
    };

    private static (Dictionary<string, object?>, bool) Death(string reason, string queue, long count, bool latest = false) =>
        (new Dictionary<string, object?>
        {
            ["reason"] = Encoding.UTF8.GetBytes(reason),
            ["queue"] = Encoding.UTF8.GetBytes(queue),
            ["count"] = count,
            ["time"] = new AmqpTimestamp(1_764_000_000),
        }, latest);
}
