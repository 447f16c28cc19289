using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// DKIM signing (RFC 6376) of every message, off unless <see cref="Domain"/> is set. Section <c>Dkim</c>; env vars
/// <c>Dkim__Domain</c> etc. The public key is published by the domain's owner in DNS at
/// <c>{Selector}._domainkey.{Domain}</c>; docs/messages.md says how.
/// </summary>
public sealed class DkimOptions : IValidatableObject
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "Dkim";

    /// <summary>The headers signed when <see cref="Headers"/> is not set.</summary>
    public const string DefaultHeaders =
        "From,Reply-To,To,Cc,Subject,Date,Message-ID,MIME-Version,Content-Type,Content-Transfer-Encoding,List-Unsubscribe,List-Unsubscribe-Post";

    /// <summary>The signing domain (<c>d=</c>), e.g. <c>example.com</c>; DKIM is off while empty.</summary>
    [RegularExpression(@"^[A-Za-z0-9.\-]{1,253}$")]
    public string? Domain { get; set; }

    /// <summary>The selector (<c>s=</c>) naming the DNS record that holds the public key.</summary>
    [RegularExpression(@"^[A-Za-z0-9.\-_]{1,63}$")]
    public string? Selector { get; set; }

    /// <summary>A PEM file holding the RSA private key (PKCS#1 or PKCS#8), e.g. a Docker secret under <c>/run/secrets/</c>.</summary>
    public string? PrivateKeyFile { get; set; }

    /// <summary>The header fields signed (<c>h=</c>), comma-separated; From is required. Those absent from a message are skipped.</summary>
    public string Headers { get; set; } = DefaultHeaders;

    /// <summary>Whether messages are signed.</summary>
    public bool Enabled => !string.IsNullOrEmpty(Domain);

    /// <summary>The signed header fields as a list.</summary>
    public IReadOnlyList<string> SignedHeaders =>
        Headers.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);

    /// <inheritdoc />
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (!Enabled)
        {
            if (!string.IsNullOrEmpty(Selector) || !string.IsNullOrEmpty(PrivateKeyFile))
            {
                yield return new ValidationResult("Dkim:Domain is required with Dkim:Selector or Dkim:PrivateKeyFile.", [nameof(Domain)]);
            }

            yield break;
        }

        if (string.IsNullOrEmpty(Selector) || string.IsNullOrEmpty(PrivateKeyFile))
        {
            yield return new ValidationResult("Dkim:Selector and Dkim:PrivateKeyFile are required with Dkim:Domain.", [nameof(Selector), nameof(PrivateKeyFile)]);
            yield break;
        }

        if (!SignedHeaders.Contains("From", StringComparer.OrdinalIgnoreCase))
        {
            yield return new ValidationResult($"Dkim:Headers must include From (RFC 6376 5.4); it is '{Headers}'.", [nameof(Headers)]);
        }

        // The key is read now, so a missing, unreadable or wrong file stops the worker at start with the reason
        // instead of failing every send.
        if (DkimMessageSigner.TryLoad(this, out string? error) is null)
        {
            yield return new ValidationResult($"Dkim:PrivateKeyFile '{PrivateKeyFile}' cannot be used: {error}", [nameof(PrivateKeyFile)]);
        }
    }
}
