using System.Diagnostics;
using System.Text;
using BenchmarkDotNet.Attributes;
using Notifications.Shared.Messaging;
using OpenTelemetry.Context.Propagation;

namespace Notifications.Benchmarks;

/// <summary>
/// The consumer's per-message trace extraction (ConsumerTracing.Capture): the headers as the broker delivers them
/// (values as bytes). Before: <c>ActivityContext.TryParse</c> over the header; now: OpenTelemetry's W3C
/// <see cref="TraceContextPropagator"/>; for comparison, the SDK's default (W3C and baggage composite).
/// </summary>
[MemoryDiagnoser]
public class TraceExtractionBenchmarks
{
    private static readonly TextMapPropagator Composite = new CompositeTextMapPropagator([new TraceContextPropagator(), new BaggagePropagator()]);
    private Dictionary<string, object?> _headers = [];

    [Params(false, true)]
    public bool WithTraceState { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        var context = new ActivityContext(ActivityTraceId.CreateRandom(), ActivitySpanId.CreateRandom(), ActivityTraceFlags.Recorded);
        _headers = new Dictionary<string, object?>
        {
            ["x-attempt"] = 2,
            [TraceContextHeader.TraceParent] = Encoding.ASCII.GetBytes($"00-{context.TraceId}-{context.SpanId}-01"),
        };
        if (WithTraceState)
        {
            _headers[TraceContextHeader.TraceState] = Encoding.ASCII.GetBytes("vendor=value,other=1");
        }
    }

    [Benchmark(Baseline = true)]
    public ActivityContext TryParse() => OldExtract(_headers);

    [Benchmark]
    public ActivityContext W3CPropagator() => TraceContextHeader.Extract(_headers);

    [Benchmark]
    public ActivityContext DefaultComposite() => Composite.Extract(default, _headers, Values).ActivityContext;

    // TraceContextHeader.Extract before the propagator (commit 70274e2).
    private static ActivityContext OldExtract(IDictionary<string, object?>? headers)
    {
        if (headers is null || !headers.TryGetValue(TraceContextHeader.TraceParent, out object? parent) || Text(parent) is not { } traceParent)
        {
            return default;
        }

        string? traceState = headers.TryGetValue(TraceContextHeader.TraceState, out object? state) ? Text(state) : null;
        return ActivityContext.TryParse(traceParent, traceState, isRemote: true, out var context) ? context : default;
    }

    private static IEnumerable<string>? Values(Dictionary<string, object?> headers, string name) =>
        headers.TryGetValue(name, out object? value) && Text(value) is { } text ? [text] : null;

    private static string? Text(object? value) => value as byte[] is { } bytes ? Encoding.ASCII.GetString(bytes) : null;
}
