using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.UnitTests.Harness;

/// <summary>The receivers' counting, which the harness's loss and duplicate check reads (GET /_receiver/counts).</summary>
public sealed class ReceiptCounterTests
{
    [Fact]
    public void Record_SameIdAcceptedTwice_OneDistinctOneDuplicate()
    {
        var counter = new ReceiptCounter();

        counter.Record("1", isAccepted: true);
        counter.Record("1", isAccepted: true);
        counter.Record("2", isAccepted: true);

        Assert.Equal(new ReceiptCounts(Requests: 3, Accepted: 3, Distinct: 2, Duplicates: 1, Refused: 0, Unidentified: 0), counter.Snapshot());
        Assert.Equal((2, 2, 1), (counter.CountFor("1"), counter.AcceptedCountFor("1"), counter.AcceptedCountFor("2")));
    }

    [Fact]
    public void Record_RefusedThenAccepted_RefusedCountedAndTheIdDeliveredOnce()
    {
        var counter = new ReceiptCounter();

        counter.Record("7", isAccepted: false);
        counter.Record("7", isAccepted: true);

        // A refused attempt is no delivery: its retry, accepted, is the id's first delivery and no duplicate.
        Assert.Equal(new ReceiptCounts(Requests: 2, Accepted: 1, Distinct: 1, Duplicates: 0, Refused: 1, Unidentified: 0), counter.Snapshot());
        Assert.Equal((2, 1), (counter.CountFor("7"), counter.AcceptedCountFor("7")));
    }

    [Fact]
    public void Record_NoId_CountedUnidentifiedNotDistinct()
    {
        var counter = new ReceiptCounter();

        counter.Record(null, isAccepted: true);
        counter.Record(null, isAccepted: false);

        Assert.Equal(new ReceiptCounts(Requests: 2, Accepted: 1, Distinct: 0, Duplicates: 0, Refused: 1, Unidentified: 2), counter.Snapshot());
    }

    [Fact]
    public void Record_ManyThreadsEachIdTwice_EveryRequestCountedOnceEach()
    {
        var counter = new ReceiptCounter();
        const int Ids = 20_000;

        Parallel.For(0, Ids * 2, new ParallelOptions { MaxDegreeOfParallelism = 8 }, i => counter.Record((i % Ids).ToString(System.Globalization.CultureInfo.InvariantCulture), isAccepted: true));

        Assert.Equal(new ReceiptCounts(Requests: Ids * 2, Accepted: Ids * 2, Distinct: Ids, Duplicates: Ids, Refused: 0, Unidentified: 0), counter.Snapshot());
    }
}
