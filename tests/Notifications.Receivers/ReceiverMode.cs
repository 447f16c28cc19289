namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// How a receiver runs: for a test, on free ports keeping every request it got (to assert on headers and bodies); for the
/// benchmark harness, on the port it was given (and the next one, for APNs) counting only (<see cref="ReceiptCounter"/>),
/// so that a million requests do not fill its memory and the figures measure the server, not its log. With
/// <paramref name="RecordArrivals"/> (the fan-out benchmark) a push server also keeps each delivery's first arrival
/// (<see cref="DeliveryArrivals"/>).
/// </summary>
internal sealed record ReceiverMode(int Port, bool KeepRequests, bool RecordArrivals = false)
{
    public static ReceiverMode Test { get; } = new(0, KeepRequests: true);

    public static ReceiverMode Benchmark(int port, bool recordArrivals = false) => new(port, KeepRequests: false, recordArrivals);
}
