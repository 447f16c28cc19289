using BenchmarkDotNet.Attributes;
using Notifications.Harness;
using Notifications.Shared.Templates;

namespace Notifications.Benchmarks;

/// <summary>
/// Rendering the order-confirmation template of <c>scripts/bench run --template</c> (subject, text and HTML bodies, a
/// loop over three items) from a parsed, cached version: the consumer's per-message cost of a templated notification.
/// Target: at most 10 µs. <see cref="ParseAndRender"/> is what every message would cost without the parse cache.
/// </summary>
[MemoryDiagnoser]
public class TemplateBenchmarks
{
    private readonly TemplateRenderer _renderer = new();
    private readonly TemplateVersion _version = new(
        BenchTemplate.Name, BenchTemplate.Locale, 1, BenchTemplate.Subject, BenchTemplate.Text, BenchTemplate.Html, DateTimeOffset.UnixEpoch);

    private readonly string _data = BenchTemplate.Data(123_456);
    private CompiledTemplate _compiled = null!;

    [GlobalSetup]
    public void Setup() => _compiled = _renderer.Compile(_version);

    [Benchmark(Baseline = true)]
    public async Task<int> RenderCached()
    {
        var rendered = await _renderer.RenderAsync(_compiled, _data, CancellationToken.None);
        return rendered.Html!.Length;
    }

    [Benchmark]
    public async Task<int> ParseAndRender()
    {
        var rendered = await _renderer.RenderAsync(_renderer.Compile(_version), _data, CancellationToken.None);
        return rendered.Html!.Length;
    }
}
