using System.Text;
using Notifications.Shared.Data;

namespace Notifications.IntegrationTests.Stores;

/// <summary>The dead-letter store's contract, in both dialects: one row per dead letter, removed by its key.</summary>
public abstract partial class StoreSuite
{
    private static readonly DateTimeOffset T = new(2026, 11, 23, 12, 0, 0, 123, TimeSpan.Zero);

    /// <summary>The dead-letter and status stores on an empty schema.</summary>
    protected abstract Task<(IDeadLetterStore DeadLetters, INotificationStatusStore Status)> CreateDeadLetterStoresAsync();

    /// <summary>Every row of the <c>dead_letter</c> table.</summary>
    protected abstract Task<IReadOnlyList<DeadLetterRow>> DeadLetterRowsAsync();

    [Fact]
    public async Task RecordAsync_IdLessTwiceAndOneIdTwice_EachItsOwnRowWithPropertiesAndBytes()
    {
        var (deadLetters, status) = await CreateDeadLetterStoresAsync();
        byte[] garbage = [0xC3, 0x28, 0xFF, 0x00];
        DeadLetterRecord[] records =
        [
            IdLess("unknown message type: 'foo.v9'", "foo.v9", Encoding.UTF8.GetBytes("{}")),
            IdLess("unknown message type: 'foo.v9'", "foo.v9", Encoding.UTF8.GetBytes("{}")),
            IdLess("undeserializable: bad bytes", null, garbage) with { MessageId = new string('m', 300) },
            new DeadLetterRecord(7, "smtp permanent failure 550: no such user", 1, T) { Key = Guid.NewGuid() },
            new DeadLetterRecord(7, "gave up after 5 attempts: smtp transient failure 451", 5, T.AddSeconds(1)) { Key = Guid.NewGuid() },
        ];

        await deadLetters.RecordAsync(records, CancellationToken.None);

        var rows = await DeadLetterRowsAsync();
        Assert.Equal(records.Select(r => r.Key).Order(), rows.Select(r => r.Key).Order());
        Assert.Equal(2, rows.Count(r => r.MessageType == "foo.v9" && r.NotificationId is null && r.Body is [(byte)'{', (byte)'}']));
        var bad = Assert.Single(rows, r => r.Reason.StartsWith("undeserializable", StringComparison.Ordinal));
        Assert.Equal(garbage, bad.Body);
        Assert.Equal(("application/json", DeadLetterRecord.MaxPropertyLength), (bad.ContentType, bad.MessageId!.Length));
        Assert.Equal(2, rows.Count(r => r.NotificationId == 7));

        var seven = await status.GetAsync(7, CancellationToken.None);
        Assert.Equal(("dead_lettered", 5, records[^1].Reason, (DateTimeOffset?)T.AddSeconds(1)), (seven.State, seven.Attempts, seven.Reason, seven.At));
        Assert.Contains("dead-lettered 2 times", seven.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RemoveAsync_ByKeyAndInstant_RemovesThatRowOnlyAndRowsWithoutKeyByIdOrReason()
    {
        var (deadLetters, _) = await CreateDeadLetterStoresAsync();
        var first = IdLess("unknown message type: 'foo.v9'", "foo.v9", [(byte)'{', (byte)'}']);
        var twin = first with { Key = Guid.NewGuid() };
        var legacy = new DeadLetterRecord(9, "invalid recipient: empty", 1, T);
        var legacyIdLess = new DeadLetterRecord(null, "undeserializable: old", 1, T);
        await deadLetters.RecordAsync([first, twin, legacy, legacyIdLess], CancellationToken.None);

        Assert.Equal(0, await deadLetters.RemoveAsync(first with { DeadLetteredAt = T.AddSeconds(1) }, CancellationToken.None));
        Assert.Equal(1, await deadLetters.RemoveAsync(first, CancellationToken.None));
        Assert.Equal(1, await deadLetters.RemoveAsync(legacy, CancellationToken.None));
        Assert.Equal(1, await deadLetters.RemoveAsync(legacyIdLess, CancellationToken.None));

        Assert.Equal([twin.Key], (await DeadLetterRowsAsync()).Select(r => r.Key));
        Assert.Equal(1, await deadLetters.RemoveAllAsync(T, CancellationToken.None));
        Assert.Empty(await DeadLetterRowsAsync());
    }

    private static DeadLetterRecord IdLess(string reason, string? type, byte[] body) =>
        new(null, reason, 1, T) { Key = Guid.NewGuid(), MessageType = type, ContentType = "application/json", Body = body };

    /// <summary>A <c>dead_letter</c> row as both dialects read it back.</summary>
    protected sealed record DeadLetterRow(
        Guid? Key, long? NotificationId, string Reason, int Attempts, string? MessageId, string? MessageType, string? ContentType, byte[]? Body);
}
