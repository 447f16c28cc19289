using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.Channels.Email.Unsubscribe;

/// <summary>
/// The List-Unsubscribe headers of bulk mail and the one-click endpoint (section <c>Unsubscribe</c>; docs/suppression.md).
/// Nothing set: bulk mail goes without the headers (logged at start). <see cref="UrlTemplate"/> set: a signing key is required.
/// </summary>
internal sealed class UnsubscribeOptions
{
    public const string SectionName = "Unsubscribe";

    /// <summary>The placeholder <see cref="UrlTemplate"/> must hold.</summary>
    public const string TokenPlaceholder = "{token}";

    /// <summary>
    /// The https URL of the one-click unsubscribe (RFC 8058), with <c>{token}</c> where the signed token goes, e.g.
    /// <c>https://mail.example.com/unsubscribe?token={token}</c>; a proxy forwards it to a consumer's <c>POST /unsubscribe</c>.
    /// </summary>
    [Url]
    public string? UrlTemplate { get; set; }

    /// <summary>An address for unsubscribing by mail (the <c>mailto:</c> of List-Unsubscribe), e.g. <c>unsubscribe@example.com</c>.</summary>
    [EmailAddress]
    public string? Mailto { get; set; }

    /// <summary>The HMAC-SHA256 key the tokens are signed with (at least 32 characters); or <see cref="SigningKeyFile"/>.</summary>
    public string? SigningKey { get; set; }

    /// <summary>A file holding the key (a Docker secret, e.g. <c>/run/secrets/unsubscribe_key</c>); surrounding white space is ignored.</summary>
    public string? SigningKeyFile { get; set; }

    /// <summary>Whether bulk mail gets List-Unsubscribe at all.</summary>
    public bool Enabled => UrlTemplate is { Length: > 0 } || Mailto is { Length: > 0 };
}
