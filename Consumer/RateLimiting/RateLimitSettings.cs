using System.Globalization;
using Microsoft.Extensions.Options;

namespace Notifications.Consumer.RateLimiting;

/// <summary>The parsed, validated rate limits: what the limiter and the lanes work from.</summary>
internal sealed class RateLimitSettings
{
    /// <summary>Key of the relay's row in <c>rate_limit</c>.</summary>
    public const string RelayKey = "relay";

    private static readonly IdnMapping Idn = new();

    public RateLimitSettings(IOptions<RateLimitOptions> options)
    {
        Options = options.Value;
        if (!TryBuild(Options, out var relay, out var domains, out var errors))
        {
            throw new OptionsValidationException(RateLimitOptions.SectionName, typeof(RateLimitOptions), errors);
        }

        Relay = relay;
        Domains = domains;
    }

    public RateLimitOptions Options { get; }

    public Rate? Relay { get; }

    /// <summary>Domain (lower case, ASCII/punycode) to its rate.</summary>
    public IReadOnlyDictionary<string, Rate> Domains { get; }

    public bool Any => Relay is not null || Domains.Count > 0;

    /// <summary>Key of a domain's row in <c>rate_limit</c>.</summary>
    public static string DomainKey(string domain) => "domain:" + domain;

    /// <summary>The recipient's domain as the limits are keyed (lower case, punycode); null when there is none.</summary>
    public static string? DomainOf(string recipient)
    {
        int at = recipient.LastIndexOf('@');
        return at < 0 || at == recipient.Length - 1 ? null : Normalize(recipient[(at + 1)..]);
    }

    /// <summary>Parses every rate; each error names its configuration key.</summary>
    public static bool TryBuild(RateLimitOptions options, out Rate? relay, out Dictionary<string, Rate> domains, out List<string> errors)
    {
        errors = [];
        relay = null;
        domains = new Dictionary<string, Rate>(StringComparer.Ordinal);
        if (!string.IsNullOrWhiteSpace(options.Relay))
        {
            if (Rate.TryParse(options.Relay, out var rate, out var error))
            {
                relay = rate;
            }
            else
            {
                errors.Add($"{RateLimitOptions.SectionName}:Relay: {error}");
            }
        }

        foreach (var (name, value) in options.Domains)
        {
            string key = $"{RateLimitOptions.SectionName}:Domains:{name}";
            string? domain = Normalize(name);
            if (domain is null || !domain.Contains('.', StringComparison.Ordinal))
            {
                errors.Add($"{key}: '{name}' is not a domain name (e.g. gmail.com)");
            }
            else if (!Rate.TryParse(value, out var rate, out var error))
            {
                errors.Add($"{key}: {error}");
            }
            else if (!domains.TryAdd(domain, rate))
            {
                errors.Add($"{key}: domain '{domain}' is configured twice");
            }
        }

        return errors.Count == 0;
    }

    private static string? Normalize(string domain)
    {
        try
        {
            string ascii = Idn.GetAscii(domain.Trim().TrimEnd('.')).ToLowerInvariant();
            return ascii.Length is > 0 and <= 253 ? ascii : null;
        }
        catch (ArgumentException)
        {
            return null;
        }
    }
}

/// <summary>Validates <see cref="RateLimitOptions"/> at start: a bad rate stops the worker with the key named.</summary>
internal sealed class RateLimitOptionsValidator : IValidateOptions<RateLimitOptions>
{
    public ValidateOptionsResult Validate(string? name, RateLimitOptions options) =>
        RateLimitSettings.TryBuild(options, out _, out _, out var errors) ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(errors);
}
