using System.Collections.ObjectModel;
using System.Diagnostics;
using Notifications.Shared.Hosting;
using OpenTelemetry;
using OpenTelemetry.Trace;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// A tracer provider in the test process listening to the sources the workers' own tracing adds
/// (<see cref="TelemetryHostingExtensions.AddNotificationsSources"/>), with the in-memory exporter.
/// Default sampler: parent-based, always on.
/// </summary>
internal sealed class SpanRecorder : IDisposable
{
    private readonly LockedList _spans = new();
    private readonly TracerProvider _provider;

    public SpanRecorder() =>
        _provider = Sdk.CreateTracerProviderBuilder().AddNotificationsSources().AddInMemoryExporter(_spans).Build();

    /// <summary>The ended spans of one trace, so far.</summary>
    public IReadOnlyList<Activity> Trace(ActivityTraceId traceId) => _spans.Snapshot().Where(a => a.TraceId == traceId).ToList();

    /// <summary>All ended spans so far.</summary>
    public IReadOnlyList<Activity> All() => _spans.Snapshot();

    public void Dispose() => _provider.Dispose();

    // The exporter adds from the workers' threads while the test reads.
    private sealed class LockedList : Collection<Activity>
    {
        private readonly Lock _lock = new();

        public IReadOnlyList<Activity> Snapshot()
        {
            lock (_lock)
            {
                return [.. Items];
            }
        }

        protected override void InsertItem(int index, Activity item)
        {
            lock (_lock)
            {
                base.InsertItem(index, item);
            }
        }
    }
}
