using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.UnitTests.Harness;

/// <summary>
/// The push server's count per delivery (notification id and device), which the fan-out benchmark reads: every delivery of a
/// fan-out carries its parent's notification id, so the device tells them apart.
/// </summary>
public sealed class DeliveryArrivalsTests
{
    [Fact]
    public void RecordAccepted_OneParentManyDevices_EachDeviceDistinct()
    {
        var arrivals = new DeliveryArrivals();

        arrivals.RecordAccepted("topic-1", "fcm:a", 30);
        arrivals.RecordAccepted("topic-1", "apns:b", 10);
        arrivals.RecordAccepted("topic-1", "fcm:c", 20);

        Assert.Equal(new ArrivalCounts(Distinct: 3, Duplicates: 0), arrivals.Counts());
        Assert.Equal([10L, 20L, 30L], arrivals.ByNotification()["topic-1"]);
    }

    [Fact]
    public void RecordAccepted_SameDeviceSameNotificationTwice_DuplicateAndTheFirstTimeKept()
    {
        var arrivals = new DeliveryArrivals();

        arrivals.RecordAccepted("7", "fcm:a", 100);
        arrivals.RecordAccepted("7", "fcm:a", 200);
        arrivals.RecordAccepted("8", "fcm:a", 300);

        Assert.Equal(new ArrivalCounts(Distinct: 2, Duplicates: 1), arrivals.Counts());
        Assert.Equal([100L], arrivals.ByNotification()["7"]);
        Assert.Equal([300L], arrivals.ByNotification()["8"]);
    }

    [Fact]
    public void RecordAccepted_ManyThreads_EveryDeliveryOnce()
    {
        var arrivals = new DeliveryArrivals();
        const int Devices = 20_000;

        Parallel.For(0, Devices * 2, i => arrivals.RecordAccepted("topic-1", $"fcm:{i % Devices}", i));

        Assert.Equal(new ArrivalCounts(Devices, Devices), arrivals.Counts());
        Assert.Equal(Devices, arrivals.ByNotification()["topic-1"].Length);
    }

    [Fact]
    public void PushLog_RecordingArrivals_AcceptedOnlyByNotificationAndDevice()
    {
        var log = new PushLog(keepRequests: false, recordArrivals: true);
        var accepted = new PushVerdict(200, "accepted", "{}");
        var refused = new PushVerdict(400, "BadDeviceToken", "{}");

        log.Record(new PushRequest("fcm", "a", "1", "HTTP/2", new Dictionary<string, string>(), [], accepted, 200, DateTimeOffset.UtcNow));
        log.Record(new PushRequest("apns", "a", "1", "HTTP/2", new Dictionary<string, string>(), [], accepted, 200, DateTimeOffset.UtcNow));
        log.Record(new PushRequest("fcm", "b", "1", "HTTP/2", new Dictionary<string, string>(), [], refused, 400, DateTimeOffset.UtcNow));

        // fcm:a and apns:a are two devices; the refused one is no delivery. By id alone: one distinct, one duplicate.
        Assert.Equal(new ArrivalCounts(2, 0), log.Arrivals!.Counts());
        Assert.Equal((1L, 1L), (log.Receipts.Snapshot().Distinct, log.Receipts.Snapshot().Duplicates));
        Assert.Null(new PushLog(keepRequests: false).Arrivals);
    }
}
