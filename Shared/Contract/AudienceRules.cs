using System.Text.RegularExpressions;

namespace Notifications.Shared.Contract;

/// <summary>
/// The audience registry's shapes (db/*/025_audiences.sql checks the same): subscriber ids, topic and category names,
/// channels, locales, time zones and contact addresses. Plain .NET only: this file is compiled into the client package
/// as well, so an app hears at write time what the table would refuse, and the admin tool and the stores use the same.
/// Each method returns null when the value is valid, otherwise why not.
/// </summary>
internal static partial class AudienceRules
{
    /// <summary>A subscriber id's (the app's own user id) length limit.</summary>
    public const int MaxSubscriberIdLength = 128;

    /// <summary>A topic name's length limit.</summary>
    public const int MaxTopicNameLength = 128;

    /// <summary>A category name's length limit.</summary>
    public const int MaxCategoryNameLength = 64;

    /// <summary>A contact address's length limit: the suppression key's, so an address the provider drops can be suppressed.</summary>
    public const int MaxAddressLength = 320;

    /// <summary>A push device's app id length limit.</summary>
    public const int MaxAppIdLength = 255;

    /// <summary>The email channel of a contact point or preference.</summary>
    public const string Email = "email";

    /// <summary>The push channel of a contact point or preference.</summary>
    public const string Push = "push";

    /// <summary>The live channel of a preference (a subscriber's running apps; no contact point: the subscriber is its own).</summary>
    public const string Live = "live";

    /// <summary>
    /// The channels a preference or a category's default may name (the tables' checks); a contact point is email or push
    /// (<see cref="Email"/>, <see cref="Push"/>).
    /// </summary>
    public static readonly IReadOnlyList<string> Channels = [Email, Push, Live];

    /// <summary>The app's user id: 1-128 of letters, digits and <c>. _ : @ + = -</c>, starting with a letter or digit.</summary>
    public static string? SubscriberId(string? id) =>
        id is not null && id.Length <= MaxSubscriberIdLength && SubscriberIdPattern().IsMatch(id)
            ? null
            : $"invalid subscriber id: '{Truncate(id)}' is not 1-{MaxSubscriberIdLength} letters, digits, '.', '_', ':', '@', '+', '=' or '-', starting with a letter or digit";

    /// <summary>A topic's name: 1-128 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit.</summary>
    public static string? TopicName(string? name) => Name("topic name", name, MaxTopicNameLength);

    /// <summary>A category's name: 1-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit.</summary>
    public static string? CategoryName(string? name) => Name("category name", name, MaxCategoryNameLength);

    /// <summary>One of <see cref="Channels"/>.</summary>
    public static string? Channel(string? channel) =>
        channel is Email or Push or Live ? null : $"invalid channel: '{Truncate(channel)}' is not one of {string.Join(", ", Channels)}";

    /// <summary>A BCP 47 tag as templates take it (en, pt-BR, zh-Hant-TW), at most 35 characters.</summary>
    public static string? Locale(string? locale) =>
        locale is not null && locale.Length <= 35 && LocalePattern().IsMatch(locale)
            ? null
            : $"invalid locale: '{Truncate(locale)}' is not a BCP 47 tag such as en or pt-BR";

    /// <summary>An IANA time zone id (Europe/Lisbon, America/Argentina/Buenos_Aires, UTC), at most 64 characters; null is none.</summary>
    public static string? TimeZone(string? timeZone) =>
        timeZone is null || (timeZone.Length <= 64 && TimeZonePattern().IsMatch(timeZone))
            ? null
            : $"invalid time zone: '{Truncate(timeZone)}' is not an IANA id such as Europe/Lisbon";

    /// <summary>
    /// An email address as the registry keeps it (and the suppression list compares it): trimmed and lower-cased; null and a
    /// reason if it is not a bare address.
    /// </summary>
    public static string? EmailAddress(string? address, out string? error)
    {
        string key = (address ?? "").Trim().ToLowerInvariant();
        int at = key.LastIndexOf('@');
        error = key switch
        {
            "" => "invalid email address: empty",
            { Length: > MaxAddressLength } => $"invalid email address: longer than {MaxAddressLength} characters",
            _ when at <= 0 || at == key.Length - 1 => $"invalid email address: '{Truncate(key)}' is not local-part@domain",
            _ when key.AsSpan().ContainsAny(" \t\r\n<>,;\"") => $"invalid email address: '{Truncate(key)}' is not a bare address (no spaces, brackets, quotes, commas or semicolons)",
            _ => null,
        };
        return error is null ? key : null;
    }

    /// <summary>
    /// A push device as the registry keeps it: the push channel's recipient, <c>fcm:&lt;token&gt;</c> or <c>apns:&lt;token&gt;</c>
    /// (the token exactly as the provider gave it), at most 320 characters; null and a reason if it is not one.
    /// </summary>
    public static string? PushAddress(string? provider, string? token, out string? error)
    {
        string recipient = $"{provider?.Trim().ToLowerInvariant()}:{token?.Trim()}";
        error = recipient.Length > MaxAddressLength
            ? $"invalid push token: {recipient.Length} characters with its provider, the registry's limit is {MaxAddressLength}"
            : ChannelRules.PushRecipient(recipient, out _, out _);
        return error is null ? recipient : null;
    }

    /// <summary>A device's app id (the app's bundle or package name): at most 255 characters, no control characters; null is none.</summary>
    public static string? AppId(string? appId) =>
        appId is null || (appId.Length is > 0 and <= MaxAppIdLength && !appId.Any(char.IsControl))
            ? null
            : $"invalid app id: 1-{MaxAppIdLength} characters without control characters";

    private static string? Name(string what, string? name, int maxLength) =>
        name is not null && name.Length <= maxLength && NamePattern().IsMatch(name)
            ? null
            : $"invalid {what}: '{Truncate(name)}' is not 1-{maxLength} lower-case letters, digits, '.', '_' or '-', starting with a letter or digit";

    private static string? Truncate(string? value) => value is { Length: > 40 } ? value[..40] + "…" : value;

    [GeneratedRegex("^[A-Za-z0-9][A-Za-z0-9._:@+=-]*\\z", RegexOptions.CultureInvariant)]
    private static partial Regex SubscriberIdPattern();

    [GeneratedRegex("^[a-z0-9][a-z0-9._-]*\\z", RegexOptions.CultureInvariant)]
    private static partial Regex NamePattern();

    [GeneratedRegex("^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*\\z", RegexOptions.CultureInvariant)]
    private static partial Regex LocalePattern();

    [GeneratedRegex("^[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*\\z", RegexOptions.CultureInvariant)]
    private static partial Regex TimeZonePattern();
}
