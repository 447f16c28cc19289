using System.ComponentModel.DataAnnotations;

namespace Notifications.Shared.Unsubscribe;

/// <summary>
/// The key ring of the unsubscribe tokens (section <c>Unsubscribe</c>), shared by the consumer (which makes tokens with
/// <see cref="CurrentKey"/>) and the unsubscribe process (which reads tokens of any key in <see cref="Keys"/>).
/// Rotation: add the new key everywhere, then make it current, then remove the old one once
/// <see cref="TokenLifetime"/> has passed (docs/suppression.md, "Rotating the key").
/// </summary>
public sealed class UnsubscribeKeyOptions
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "Unsubscribe";

    /// <summary>The size of a key: AES-256.</summary>
    public const int KeyBytes = 32;

    /// <summary>
    /// The keys by name (<c>Unsubscribe:Keys:2026-11</c>; env <c>Unsubscribe__Keys__2026-11</c>; a Docker secret of that
    /// name), each 32 random bytes in base64 (<c>openssl rand -base64 32</c>). The name is the operators' handle only:
    /// a token names its key by a fingerprint of the key itself.
    /// </summary>
    public Dictionary<string, string> Keys { get; set; } = new(StringComparer.Ordinal);

    /// <summary>The name of the key new tokens are made with; may be left out when <see cref="Keys"/> holds one key.</summary>
    public string? CurrentKey { get; set; }

    /// <summary>How long a token is honoured after it was made (30 days at least: links must work a month after sending).</summary>
    [Range(typeof(TimeSpan), "30.00:00:00", "3650.00:00:00")]
    public TimeSpan TokenLifetime { get; set; } = TimeSpan.FromDays(365);
}
