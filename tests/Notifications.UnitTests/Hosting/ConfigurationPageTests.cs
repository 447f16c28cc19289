using System.Reflection;
using System.Text.RegularExpressions;

namespace Notifications.UnitTests.Hosting;

/// <summary>
/// docs/configuration.md says it lists every option: every key an options class of the workers and the admin tool binds
/// (a settable property, nested options classes followed) is on the page, and every key the page names in one of those
/// sections binds (or is a documented deprecated name).
/// </summary>
public sealed partial class ConfigurationPageTests
{
    // Old names still read, each with a warning at start (the page says what replaced them).
    private static readonly string[] Deprecated = ["Push:TrustedCertificateFile"];

    private static readonly Assembly[] Bound =
    [
        typeof(Notifications.Consumer.ConsumerHostingExtensions).Assembly,
        typeof(Notifications.Producer.ProducerOptions).Assembly,
        typeof(Notifications.Shared.Hosting.DatabaseOptions).Assembly,
        typeof(Notifications.Unsubscribe.UnsubscribeServerOptions).Assembly,
        typeof(Notifications.Gateway.GatewayHostingExtensions).Assembly,
        typeof(Notifications.OperatorConsole.ConsoleOptions).Assembly,
        typeof(Notifications.Bounces.BounceReceiverHostingExtensions).Assembly,
    ];

    private static readonly string Page = RepositoryFile.Read("docs", "configuration.md");

    public static TheoryData<string> Keys() => [.. OptionKeys().Order(StringComparer.Ordinal)];

    [Theory]
    [MemberData(nameof(Keys))]
    public void Page_EveryBoundKey_Listed(string key) =>
        Assert.True(Page.Contains($"`{key}`", StringComparison.Ordinal) || Page.Contains($"`{key}:", StringComparison.Ordinal),
            $"docs/configuration.md does not list `{key}`");

    [Fact]
    public void Page_EveryKeyOfAnOptionsSection_Binds()
    {
        var keys = OptionKeys().ToHashSet(StringComparer.Ordinal);
        var sections = keys.Select(k => k[..k.IndexOf(':', StringComparison.Ordinal)]).ToHashSet(StringComparer.Ordinal);

        var unknown = KeyInBackticks().Matches(Page).Select(m => m.Groups["key"].Value)
            .Where(k => sections.Contains(k[..k.IndexOf(':', StringComparison.Ordinal)]))
            .Where(k => !keys.Contains(k) && !keys.Any(bound => k.StartsWith(bound + ":", StringComparison.Ordinal)) && !Deprecated.Contains(k))
            .Distinct(StringComparer.Ordinal)
            .ToList();

        Assert.True(unknown.Count == 0, "keys on the page that nothing binds: " + string.Join(", ", unknown));
    }

    [Fact]
    public void OptionKeys_FoundInEveryBoundSection()
    {
        var sections = OptionKeys().Select(k => k[..k.IndexOf(':', StringComparison.Ordinal)]).ToHashSet(StringComparer.Ordinal);

        Assert.Superset(
            new HashSet<string>(["RabbitMq", "Database", "Producer", "Consumer", "Relay", "Smtp", "Dkim", "Templates", "Webhooks", "Push",
                "RateLimits", "Suppression", "Unsubscribe", "Retention", "Metrics", "Faults", "Gateway", "Console"], StringComparer.Ordinal),
            sections);
    }

    // Section:Property for every options class (a type with a SectionName constant), nested classes as Section:Property:Inner.
    private static IEnumerable<string> OptionKeys() =>
        Bound.SelectMany(a => a.GetTypes())
            .Where(t => t.Name.EndsWith("Options", StringComparison.Ordinal)
                && t.GetField("SectionName", BindingFlags.Public | BindingFlags.Static) is { IsLiteral: true })
            .SelectMany(t => KeysOf(t, (string)t.GetField("SectionName")!.GetRawConstantValue()!));

    private static IEnumerable<string> KeysOf(Type type, string prefix)
    {
        foreach (var property in type.GetProperties(BindingFlags.Public | BindingFlags.Instance).Where(p => p.SetMethod is { IsPublic: true }))
        {
            string key = $"{prefix}:{property.Name}";
            if (IsNested(property.PropertyType))
            {
                foreach (string inner in KeysOf(property.PropertyType, key))
                {
                    yield return inner;
                }
            }
            else
            {
                yield return key;
            }
        }
    }

    // An options class inside another (Push:Fcm): bound property by property, so each of its keys is an option.
    private static bool IsNested(Type type) =>
        type.IsClass && type != typeof(string) && type != typeof(Uri) && !type.IsArray && !type.IsGenericType && type.GetConstructor(Type.EmptyTypes) is not null;

    [GeneratedRegex(@"`(?<key>[A-Z][A-Za-z]+(?::[A-Z][A-Za-z0-9]*)+)`")]
    private static partial Regex KeyInBackticks();
}
