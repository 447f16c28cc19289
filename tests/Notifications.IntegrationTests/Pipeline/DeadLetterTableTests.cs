using System.Text;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// Every message the consumer dead-letters has a row of its own in the <c>dead_letter</c> table, also the
/// ones without a notification id (issue 16, item 2: they used to share one row with id 0 or replace each other).
/// The row's key is the delivery attempt's (<c>DeadLetterKey</c>): a message with neither a notification id nor an AMQP
/// message id is named by its bytes, content type and type, so two byte-identical ones under the same properties are one row,
/// both in the dead queue with its key.
/// </summary>
[Collection("services")]
public sealed class DeadLetterTableTests
{
    private static readonly (string? ContentType, string? Type, byte[] Body, string Reason)[] IdLess =
    [
        ("application/json", null, Utf8("{\"hello\":\"world\"}"), "invalid id: 0"),
        ("application/json", "foo.v9", Utf8("{}"), "unknown message type: 'foo.v9'"),
        ("application/json", "notification-envelope.v1", Utf8("{\"not\":\"an array\"}"), "undeserializable envelope: the body is not a JSON array"),
        ("text/plain", null, Utf8("hello\nthere"), "wrong content type: 'text/plain'"),
        ("application/json", null, [0xC3, 0x28, 0xFF, 0x00], "undeserializable: "),
        // An id that is not a number: no id (reading it must not throw).
        ("application/json", null, Utf8("{\"id\":\"7\"}"), "undeserializable: "),
        // An envelope item that is not a notification leaves alone, as a single message of the contract's type.
        ("application/json", "notification-envelope.v1", Utf8("[{\"hello\":1}]"), "invalid id: 0"),
        // Two byte-identical messages without any id cannot be told from a redelivered copy: one row, two dead-queue messages.
        ("application/json", "foo.v9", Utf8("{}"), "unknown message type: 'foo.v9'"),
    ];

    [Fact]
    public async Task Consumer_IdLessBadMessages_OneRowPerAttemptKeyWithItsReasonAndTheDeadQueueHoldsEach()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        foreach (var (contentType, type, body, _) in IdLess)
        {
            await broker.PublishRawAsync(body, contentType, type);
        }

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        {
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == IdLess.Length,
                TimeSpan.FromMinutes(1), "dead letters");
        }

        await using var connection = await TestDatabase.OpenAsync();
        var rows = (await connection.QueryAsync<Row>(
            "SELECT letter_key AS Key, notification_id AS NotificationId, reason AS Reason, message_type AS Type, body AS Body FROM notifications.dead_letter"))
            .ToList();
        Assert.Equal(IdLess.Length - 1, rows.Count);
        Assert.All(rows, r => Assert.Null(r.NotificationId));
        Assert.Equal(
            IdLess.SkipLast(1).Select(m => m.Reason).Order(StringComparer.Ordinal),
            rows.Select(r => IdLess.Select(m => m.Reason).Distinct().Single(expected => r.Reason.StartsWith(expected, StringComparison.Ordinal)))
                .Order(StringComparer.Ordinal));
        var foo = rows.Where(r => r.Type == "foo.v9").ToList();
        Assert.Equal("{}", Encoding.UTF8.GetString(Assert.Single(foo).Body!));
        Assert.Equal(2, rows.Count(r => r.Reason.StartsWith("undeserializable: ", StringComparison.Ordinal)));
        Assert.Single(rows, r => r.Body is [0xC3, 0x28, 0xFF, 0x00]);

        var list = await AdminRun.InProcessAsync(broker, "", "dead-letters", "list");
        Assert.Equal(0, list.ExitCode);
        Assert.DoesNotContain("(unreadable)", list.Output, StringComparison.Ordinal);
        Assert.Contains("[type foo.v9, content type application/json, 2 bytes: {}]", list.Output, StringComparison.Ordinal);
        Assert.Contains("[type -, content type text/plain, 11 bytes: hello\\nthere]", list.Output, StringComparison.Ordinal);
        Assert.Contains("4 bytes: \\xC3(\\xFF\\u0000]", list.Output, StringComparison.Ordinal);
        Assert.Contains("17 bytes: {\"hello\":\"world\"}]", list.Output, StringComparison.Ordinal);
        Assert.Contains("10 bytes: {\"id\":\"7\"}]", list.Output, StringComparison.Ordinal);
        string envelope = list.Output.Split('\n').Single(l => l.Contains("{\"not\":\"an array\"}", StringComparison.Ordinal)).Trim().Split(' ')[0];
        var show = await AdminRun.InProcessAsync(broker, "", "dead-letters", "show", envelope);
        Assert.Equal(0, show.ExitCode);
        Assert.Contains("notification id:  none", show.Output, StringComparison.Ordinal);
        Assert.Contains("type:             notification-envelope.v1", show.Output, StringComparison.Ordinal);

        var queued = await broker.DrainDeadLettersAsync();
        Assert.Equal(IdLess.Length, queued.Count);
        Assert.Equal(
            rows.Select(r => r.Key.ToString()).Order(StringComparer.Ordinal),
            queued.Select(d => Encoding.UTF8.GetString((byte[])d.Headers["x-dead-key"]!)).Distinct().Order(StringComparer.Ordinal));
    }

    private static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);

    private sealed record Row(Guid? Key, long? NotificationId, string Reason, string? Type, byte[]? Body);
}
