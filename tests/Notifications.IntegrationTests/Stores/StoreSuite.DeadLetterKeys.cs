using Notifications.Shared.Data;

namespace Notifications.IntegrationTests.Stores;

/// <summary>The dead-letter store's idempotence by key, in both dialects: a redelivered attempt's record adds no row.</summary>
public abstract partial class StoreSuite
{
    [Fact]
    public async Task RecordAsync_SameKeyTwice_OneRowTheFirstKept()
    {
        var (deadLetters, _) = await CreateDeadLetterStoresAsync();
        var key = Guid.NewGuid();
        var first = new DeadLetterRecord(11, "smtp permanent failure 550: no such user", 2, T) { Key = key, MessageId = "m-11", Body = [1, 2] };
        var again = first with { Reason = "gave up after 2 attempts", DeadLetteredAt = T.AddSeconds(5) };

        await deadLetters.RecordAsync([first], CancellationToken.None);
        await deadLetters.RecordAsync([again], CancellationToken.None);
        await deadLetters.RecordAsync([again, again with { DeadLetteredAt = T.AddSeconds(6) }], CancellationToken.None);

        var row = Assert.Single(await DeadLetterRowsAsync());
        Assert.Equal((key, (long?)11, first.Reason, 2), (row.Key!.Value, row.NotificationId, row.Reason, row.Attempts));
    }

    [Fact]
    public async Task FindAsync_RecordedKeyAndUnknownKey_TheRecordAsStoredOrNull()
    {
        var (deadLetters, _) = await CreateDeadLetterStoresAsync();
        var recorded = IdLess("undeserializable: bad bytes", "foo.v9", [0xC3, 0x28]) with { MessageId = "m-1", Attempts = 3 };
        await deadLetters.RecordAsync([recorded], CancellationToken.None);

        var found = await deadLetters.FindAsync(recorded.Key!.Value, CancellationToken.None);

        Assert.NotNull(found);
        Assert.Equal((recorded.Key, (long?)null, recorded.Reason, 3, T.ToUnixTimeMilliseconds()),
            (found.Key, found.NotificationId, found.Reason, found.Attempts, found.StoredAt.ToUnixTimeMilliseconds()));
        Assert.Equal(("m-1", "foo.v9", "application/json"), (found.MessageId, found.MessageType, found.ContentType));
        Assert.Equal(recorded.Body, found.Body);
        Assert.Null(await deadLetters.FindAsync(Guid.NewGuid(), CancellationToken.None));
    }

    [Fact]
    public async Task FindRecordedAsync_RecordedAndUnknownKeys_OnlyTheRecordedOnes()
    {
        var (deadLetters, _) = await CreateDeadLetterStoresAsync();
        var first = IdLess("undeserializable: bad bytes", "foo.v9", [0xC3, 0x28]);
        var second = first with { Key = Guid.NewGuid(), Reason = "wrong content type" };
        await deadLetters.RecordAsync([first, second], CancellationToken.None);

        var found = await deadLetters.FindRecordedAsync([first.Key!.Value, Guid.NewGuid(), second.Key!.Value, first.Key!.Value], CancellationToken.None);

        Assert.Equal(new[] { first.Key!.Value, second.Key!.Value }.Order(), found.Order());
        Assert.Empty(await deadLetters.FindRecordedAsync([Guid.NewGuid()], CancellationToken.None));
    }
}
