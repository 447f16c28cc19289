using System.ComponentModel.DataAnnotations;

namespace Notifications.Unsubscribe;

/// <summary>
/// Where the unsubscribe process answers the public (section <c>Unsubscribe</c>): an address and port of its own, never
/// the operations port's, so it can be exposed alone; HTTPS when a certificate is given (the hop from the reverse proxy).
/// </summary>
internal sealed class UnsubscribeServerOptions
{
    public const string SectionName = "Unsubscribe";

    /// <summary>The address Kestrel binds: <c>127.0.0.1</c> behind a proxy on the same machine, <c>0.0.0.0</c> in a container.</summary>
    [Required]
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>The port; 0 picks a free one (tests).</summary>
    [Range(0, 65535)]
    public int Port { get; set; } = 8080;

    /// <summary>A PEM certificate file (the chain after the leaf): serve HTTPS with it. Unset: plain HTTP.</summary>
    public string? Certificate { get; set; }

    /// <summary>The PEM private key of <see cref="Certificate"/>.</summary>
    public string? CertificateKey { get; set; }

    /// <summary>
    /// The consumer's old HMAC key (its former <c>Unsubscribe:SigningKey</c>, at least 32 characters): set, links in mail
    /// sent before the upgrade (readable tokens) are honoured; unset, they get a page saying the link is too old. Keep it
    /// for the deprecation window only (docs/suppression.md, "Links in mail sent before the upgrade"); or <see cref="LegacySigningKeyFile"/>.
    /// </summary>
    public string? LegacySigningKey { get; set; }

    /// <summary>A file holding <see cref="LegacySigningKey"/> (a Docker secret); surrounding white space is ignored.</summary>
    public string? LegacySigningKeyFile { get; set; }

    /// <summary>Whether the server speaks HTTPS.</summary>
    public bool Https => Certificate is { Length: > 0 };
}
