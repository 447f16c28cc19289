using BenchmarkDotNet.Attributes;
using Notifications.Bounces.Reports;
using Notifications.Shared.Bounces;

namespace Notifications.Benchmarks;

/// <summary>
/// The bounce receiver's per-report CPU before the database: MimeKit parses a DSN or ARF sample of the corpus
/// (tests/Notifications.UnitTests/Bounces/Corpus), the report is classified, and its return path verified (HMAC).
/// The target is 2,000 reports a second on this box: a mean under 500 µs on one core.
/// </summary>
[MemoryDiagnoser]
public class BounceParseBenchmarks
{
    private static readonly ReturnPath Codec = new(new ReturnPathOptions
    {
        Domain = "bounces.example.com",
        Keys = [new ReturnPathKey { Id = "k1", Secret = Convert.ToBase64String(new byte[32]) }],
    });

    private readonly BounceParser _parser = new(Codec);
    private byte[] _message = [];
    private string[] _recipients = [];

    [Params("postfix-user-unknown.eml", "office365-ndr.eml", "gmail-failure.eml", "yahoo-arf.eml")]
    public string Sample { get; set; } = "";

    [GlobalSetup]
    public void Setup()
    {
        string returnPath = Codec.For(123_456);
        _message = System.Text.Encoding.UTF8.GetBytes(
            File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "Bounces", "Corpus", Sample)).Replace("{{RETURN_PATH}}", returnPath, StringComparison.Ordinal));
        _recipients = [Sample.Contains("arf", StringComparison.Ordinal) ? "fbl@bounces.example.com" : returnPath];
        if (ReadReport().IsDropped)
        {
            throw new InvalidOperationException($"{Sample} is not read as a report: the benchmark would measure a drop");
        }
    }

    [Benchmark]
    public object Read() => ReadReport();

    private BounceReport ReadReport() => _parser.Read(new MemoryStream(_message, writable: false), _recipients);
}
