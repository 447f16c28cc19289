using System.Text.Json;
using Notifications.Shared.Observability.Hops;

namespace Notifications.Producer;

/// <summary>Running totals of this producer process, read by logs and the harness.</summary>
internal sealed class ProducerStats(ProducerMetrics? metrics = null)
{
    private static readonly JsonSerializerOptions Json = new() { WriteIndented = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };
    private long _published;
    private long _batches;
    private long _failures;
    private long _heldBack;

    public long Published => Interlocked.Read(ref _published);

    public long Batches => Interlocked.Read(ref _batches);

    public long Failures => Interlocked.Read(ref _failures);

    /// <summary>Claims not made because the work queue held <see cref="ProducerOptions.MaxQueued"/> already.</summary>
    public long HeldBack => Interlocked.Read(ref _heldBack);

    public void AddBatch(int published)
    {
        if (published > 0)
        {
            Interlocked.Add(ref _published, published);
            Interlocked.Increment(ref _batches);
            metrics?.Committed(published);
        }
    }

    /// <summary>The report the harness reads (Producer:StatsFile): totals and the producer's hops (see <see cref="ProducerMetrics.Hops"/>).</summary>
    public string ToJson(IReadOnlyList<HopEntry> hops) => JsonSerializer.Serialize(
        new { published = Published, batches = Batches, failures = Failures, heldBack = HeldBack, hops }, Json);

    public void AddHeldBack() => Interlocked.Increment(ref _heldBack);

    public void AddFailure()
    {
        Interlocked.Increment(ref _failures);
        metrics?.BatchFailed();
    }
}
