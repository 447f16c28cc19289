using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.Channels.Email.Unsubscribe;

/// <summary>
/// The List-Unsubscribe headers of bulk mail (section <c>Unsubscribe</c>; docs/suppression.md). Nothing set: bulk mail goes
/// without them (logged at start). <see cref="UrlTemplate"/> set: the key ring (<c>Unsubscribe:Keys</c>,
/// <see cref="Shared.Unsubscribe.UnsubscribeKeyOptions"/>) must hold the key tokens are made with.
/// </summary>
internal sealed class UnsubscribeOptions
{
    public const string SectionName = "Unsubscribe";

    /// <summary>The placeholder <see cref="UrlTemplate"/> must hold.</summary>
    public const string TokenPlaceholder = "{token}";

    /// <summary>
    /// The public https URL of the unsubscribe page and one-click POST (RFC 8058), with <c>{token}</c> where the opaque token
    /// goes, e.g. <c>https://mail.example.com/unsubscribe?token={token}</c>; a proxy forwards it to the unsubscribe process.
    /// </summary>
    [Url]
    public string? UrlTemplate { get; set; }

    /// <summary>An address for unsubscribing by mail (the <c>mailto:</c> of List-Unsubscribe), e.g. <c>unsubscribe@example.com</c>.</summary>
    [EmailAddress]
    public string? Mailto { get; set; }

    /// <summary>The HMAC key of the first, readable tokens: no longer used; set, it stops the consumer with advice.</summary>
    public string? SigningKey { get; set; }

    /// <summary>The file of <see cref="SigningKey"/>: no longer used either.</summary>
    public string? SigningKeyFile { get; set; }

    /// <summary>Whether bulk mail gets List-Unsubscribe at all.</summary>
    public bool Enabled => UrlTemplate is { Length: > 0 } || Mailto is { Length: > 0 };
}
