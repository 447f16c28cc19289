using Notifications.Shared.Data;

namespace Notifications.UnitTests.Status;

/// <summary>How a dead letter is stored: one row per id (the latest), rows without an id kept each, reason and instant as the headers carry them.</summary>
public sealed class DeadLetterRecordTests
{
    private static readonly DateTimeOffset T = new(2026, 11, 23, 12, 0, 0, 123, TimeSpan.Zero);

    [Fact]
    public void Split_SameIdTwiceAndTwoWithoutId_KeepsTheLatestPerIdAndEveryIdless()
    {
        DeadLetterRecord[] records =
        [
            new(7, "first", 1, T), new(7, "second", 2, T.AddSeconds(1)), new(8, "other", 1, T),
            new(null, "garbage a", 1, T), new(null, "garbage b", 1, T),
        ];

        var (withId, withoutId) = DeadLetterRecord.Split(records);

        Assert.Equal(["second", "other"], withId.Select(d => d.Reason));
        Assert.Equal(["garbage a", "garbage b"], withoutId.Select(d => d.Reason));
    }

    [Fact]
    public void Stored_LongReasonAndSubMillisecondInstant_CutToTheColumnAndToTheHeadersMilliseconds()
    {
        var record = new DeadLetterRecord(1, new string('r', 5000), 1, T.AddTicks(4321));

        Assert.Equal(DeadLetterRecord.MaxReasonLength, record.StoredReason.Length);
        Assert.EndsWith("…", record.StoredReason, StringComparison.Ordinal);
        Assert.Equal(T, record.StoredAt);
        Assert.Equal(T.ToUnixTimeMilliseconds(), record.StoredAt.ToUnixTimeMilliseconds());
    }
}
