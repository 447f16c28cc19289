using System.Text.RegularExpressions;

namespace Notifications.UnitTests.Harness;

/// <summary>
/// Every option the benchmark harness reads (HarnessOptions) is in <c>scripts/bench --help</c> and in the options table of
/// docs/benchmarks/README.md, so neither falls behind the harness.
/// </summary>
public sealed partial class BenchHelpTests
{
    private static readonly string Script = RepositoryFile.Read("scripts", "bench");

    public static TheoryData<string> Options() => [.. OptionNames()];

    [Theory]
    [MemberData(nameof(Options))]
    public void Help_EveryHarnessOption_Described(string option)
    {
        string help = Script[Script.IndexOf("cat <<'HELP'", StringComparison.Ordinal)..Script.IndexOf("\nHELP\n", StringComparison.Ordinal)];

        Assert.Matches(new Regex($@"{Regex.Escape(option)}\b"), help);
    }

    [Theory]
    [MemberData(nameof(Options))]
    public void Readme_EveryHarnessOption_InTheOptionsTable(string option) =>
        Assert.Matches(new Regex($@"^\| [^|]*`{Regex.Escape(option)}\b", RegexOptions.Multiline), RepositoryFile.Read("docs", "benchmarks", "README.md"));

    [Fact]
    public void Options_FoundInTheHarness() => Assert.Contains("--queue", OptionNames());

    [Fact]
    public void Options_FanOutModesOwnFound() => Assert.Contains("--devices-per-subscriber", OptionNames());

    [Fact]
    public void Options_LiveModesOwnFound() => Assert.Contains("--ack-sample", OptionNames());

    // The shared options and the fanout and live modes' own (FanOutBenchOptions, LiveBenchOptions).
    private static IEnumerable<string> OptionNames() =>
        new[]
        {
            RepositoryFile.Read("tests", "Notifications.Harness", "HarnessOptions.cs"),
            RepositoryFile.Read("tests", "Notifications.Harness", "FanOut", "FanOutBenchOptions.cs"),
            RepositoryFile.Read("tests", "Notifications.Harness", "Live", "LiveBenchOptions.cs"),
        }
            .SelectMany(source => OptionName().Matches(source)).Select(m => m.Groups["option"].Value)
            .Distinct().Order(StringComparer.Ordinal);

    [GeneratedRegex(@"(?:case|key ==) ""(?<option>--[a-z][a-z-]*)""")]
    private static partial Regex OptionName();
}
