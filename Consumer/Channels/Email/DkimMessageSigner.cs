using System.Security.Cryptography;
using MimeKit;
using MimeKit.Cryptography;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// Signs finished messages with MimeKit's <see cref="DkimSigner"/>: RSA-SHA256, relaxed/relaxed canonicalization
/// (survives the header refolding and trailing-space changes relays make). Thread-safe: MimeKit makes a new signing
/// context per message, so one instance serves every handler.
/// </summary>
internal sealed class DkimMessageSigner(DkimSigner signer, IReadOnlyList<string> headers)
{
    // Keys shorter than this are refused by verifiers (RFC 8301 3.2: at least 1024, 2048 recommended).
    private const int MinimumKeyBits = 1024;

    private readonly string[] headers = [.. headers];

    /// <summary>The signer <paramref name="options"/> describe, or null when DKIM is off.</summary>
    public static DkimMessageSigner? Create(DkimOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (!options.Enabled)
        {
            return null;
        }

        return TryLoad(options, out string? error) is { } signer
            ? new DkimMessageSigner(signer, options.SignedHeaders)
            : throw new InvalidOperationException($"Dkim:PrivateKeyFile '{options.PrivateKeyFile}' cannot be used: {error}");
    }

    /// <summary>MimeKit's signer for <paramref name="options"/>, or null and why the key file cannot be used.</summary>
    internal static DkimSigner? TryLoad(DkimOptions options, out string? error)
    {
        try
        {
            // Read by .NET first for its size; MimeKit (BouncyCastle) then reads the same PEM for the signer.
            using var rsa = RSA.Create();
            rsa.ImportFromPem(File.ReadAllText(options.PrivateKeyFile!));
            if (rsa.KeySize < MinimumKeyBits)
            {
                error = $"the RSA key has {rsa.KeySize} bits; verifiers require at least {MinimumKeyBits} (2048 recommended)";
                return null;
            }

            error = null;
            return new DkimSigner(options.PrivateKeyFile!, options.Domain!, options.Selector!, DkimSignatureAlgorithm.RsaSha256)
            {
                HeaderCanonicalizationAlgorithm = DkimCanonicalizationAlgorithm.Relaxed,
                BodyCanonicalizationAlgorithm = DkimCanonicalizationAlgorithm.Relaxed,
            };
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or ArgumentException
            or CryptographicException or InvalidCastException or NotSupportedException)
        {
            error = $"{e.GetType().Name}: {e.Message}";
            return null;
        }
    }

    /// <summary>
    /// Adds the DKIM-Signature header to <paramref name="message"/>, which must be final. The body's transfer
    /// encoding is fixed to 7-bit first (quoted-printable or base64 where needed): a relay converting 8-bit
    /// content on the way would otherwise change the signed body, and MailKit's own Prepare at the send keeps it.
    /// </summary>
    public void Sign(FormatOptions format, MimeMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        message.Prepare(EncodingConstraint.SevenBit);
        signer.Sign(format, message, headers);
    }
}
