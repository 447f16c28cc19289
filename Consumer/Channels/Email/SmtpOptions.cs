using System.ComponentModel.DataAnnotations;
using System.Text.RegularExpressions;

namespace Notifications.Consumer.Channels.Email;

/// <summary>The SMTP server the consumer sends through. Section <c>Smtp</c>; env vars <c>Smtp__Host</c> etc.</summary>
public sealed partial class SmtpOptions : IValidatableObject
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "Smtp";

    /// <summary>Host name or IP address of the SMTP server.</summary>
    [Required]
    public string Host { get; set; } = "127.0.0.1";

    /// <summary>TCP port of the SMTP server (25 relay, 587 submission with STARTTLS, 465 implicit TLS).</summary>
    [Range(1, 65535)]
    public int Port { get; set; } = 25;

    /// <summary>Whether and how the connection is encrypted.</summary>
    public SmtpSecurity Security { get; set; } = SmtpSecurity.StartTlsWhenAvailable;

    /// <summary>User name for SMTP AUTH (MailKit picks the strongest mechanism the server offers); none when empty.</summary>
    public string? Username { get; set; }

    /// <summary>Password for SMTP AUTH; required with <see cref="Username"/>.</summary>
    public string? Password { get; set; }

    /// <summary>
    /// Allows sending credentials over an unencrypted connection. Off: a connection that did not end up
    /// encrypted fails before AUTH rather than leak the password.
    /// </summary>
    public bool AllowAuthWithoutTls { get; set; }

    /// <summary>
    /// Whether the server certificate's revocation is checked online during the TLS handshake (MailKit's
    /// <c>CheckCertificateRevocation</c>). Off only where the CA's CRL/OCSP endpoints cannot be reached; the
    /// certificate itself is validated either way.
    /// </summary>
    public bool CheckCertificateRevocation { get; set; } = true;

    /// <summary>
    /// The From header and envelope sender: one mailbox, bare (<c>billing@acme.example</c>) or with a display name
    /// (<c>Acme Billing &lt;billing@acme.example&gt;</c>; quote a name with a comma). The header carries the name (a
    /// non-ASCII one encoded per RFC 2047), MAIL FROM the bare address — unless <c>Bounces:Domain</c> is set: then MAIL FROM is
    /// each notification's signed return path and this stays the header only. Parsed by MimeKit (<see cref="FromAddress"/>).
    /// </summary>
    [Required]
    public string From { get; set; } = "notifications@localhost";

    /// <summary>The name this client gives in EHLO/HELO.</summary>
    [Required, RegularExpression(@"^[A-Za-z0-9.\-:\[\]]{1,255}$")]
    public string HeloName { get; set; } = "localhost";

    /// <summary>
    /// How long opening a session may take in all: TCP connect, TLS, greeting, EHLO and STARTTLS (MailKit's
    /// <c>ConnectAsync</c>). Each read or write within it is also bounded by <see cref="CommandTimeout"/>.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:05:00")]
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>How long each write or read on the connection may take (MailKit's <c>SmtpClient.Timeout</c>).</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:10:00")]
    public TimeSpan CommandTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// A session left idle this long is checked with NOOP before the next send, and reopened if that fails
    /// (servers close idle sessions, Postfix after 300 s).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00", "01:00:00")]
    public TimeSpan IdleCheckAfter { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The right-hand side of generated Message-IDs: <c>&lt;{id}.{unix-ms}@{domain}&gt;</c>.</summary>
    [Required, RegularExpression(@"^[A-Za-z0-9.\-]{1,253}$")]
    public string MessageIdDomain { get; set; } = "notifications.local";

    /// <inheritdoc />
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (FromAddress.TryParse(From, out string? fromError) is not { } from)
        {
            yield return new ValidationResult(fromError, [nameof(From)]);
        }
        else if (!BareAddress().IsMatch(from.Address))
        {
            yield return new ValidationResult($"Smtp:From's address '{from.Address}' has whitespace, brackets or control characters.", [nameof(From)]);
        }

        bool hasUser = !string.IsNullOrEmpty(Username);
        if (hasUser && string.IsNullOrEmpty(Password))
        {
            yield return new ValidationResult("Smtp:Password is required with Smtp:Username.", [nameof(Password)]);
        }

        if (hasUser && Security == SmtpSecurity.None && !AllowAuthWithoutTls)
        {
            yield return new ValidationResult(
                "Smtp:Username with Smtp:Security=None would send the password in clear text; "
                + "use TLS or set Smtp:AllowAuthWithoutTls.",
                [nameof(Security)]);
        }
    }

    // No whitespace, angle brackets or control characters: the address goes into MAIL FROM:<...>.
    [GeneratedRegex(@"^[^\s<>\x00-\x1f\x7f]{1,254}$")]
    private static partial Regex BareAddress();
}
