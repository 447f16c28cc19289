using BenchmarkDotNet.Attributes;
using Notifications.Shared.Contract;

namespace Notifications.Benchmarks;

/// <summary>The wire contract: the producer serializes every row, the consumer reads and validates every message.</summary>
[MemoryDiagnoser]
public class SerializationBenchmarks
{
    private readonly NotificationMessage _message = new(123_456, "customer123456@example.com", "Your order #123456 has shipped",
        "Hello,\n\norder 123456 is on its way.\n", false, DateTimeOffset.UnixEpoch.AddYears(55), null);

    private byte[] _body = [];

    [GlobalSetup]
    public void Setup() => _body = MessageSerializer.Serialize(_message);

    [Benchmark]
    public byte[] Serialize() => MessageSerializer.Serialize(_message);

    [Benchmark]
    public NotificationMessage? Deserialize() => MessageSerializer.TryDeserialize(_body, out var message, out _) ? message : null;

    [Benchmark]
    public string? Validate() => NotificationValidator.Validate(_message);
}
