using Notifications.Shared.Data;

namespace Notifications.UnitTests.Status;

/// <summary>How a dead letter is stored: reason, properties and instant as the headers carry them, cut to the columns.</summary>
public sealed class DeadLetterRecordTests
{
    private static readonly DateTimeOffset T = new(2026, 11, 23, 12, 0, 0, 123, TimeSpan.Zero);

    [Fact]
    public void Stored_LongReasonAndSubMillisecondInstant_CutToTheColumnAndToTheHeadersMilliseconds()
    {
        var record = new DeadLetterRecord(1, new string('r', 5000), 1, T.AddTicks(4321));

        Assert.Equal(DeadLetterRecord.MaxReasonLength, record.StoredReason.Length);
        Assert.EndsWith("…", record.StoredReason, StringComparison.Ordinal);
        Assert.Equal(T, record.StoredAt);
        Assert.Equal(T.ToUnixTimeMilliseconds(), record.StoredAt.ToUnixTimeMilliseconds());
    }

    [Fact]
    public void Cut_PropertyLongerThanTheColumn_CutWithAnEllipsisShortOnesAndNullKept()
    {
        Assert.Equal(DeadLetterRecord.MaxPropertyLength, DeadLetterRecord.Cut(new string('t', 300))!.Length);
        Assert.Equal("foo.v9", DeadLetterRecord.Cut("foo.v9"));
        Assert.Null(DeadLetterRecord.Cut(null));
    }
}
