using System.ComponentModel.DataAnnotations;

namespace Notifications.Bounces;

/// <summary>
/// The bounce receiver's listener and policy (section <c>Bounces</c>, beside the return path's <c>Domain</c> and <c>Keys</c>,
/// <see cref="Shared.Bounces.ReturnPathOptions"/>): where it accepts mail for the bounce domain, how large a report may
/// be, STARTTLS, and when soft bounces suppress an address.
/// </summary>
internal sealed class BounceReceiverOptions
{
    public const string SectionName = "Bounces";

    /// <summary>The address the SMTP listener binds: <c>0.0.0.0</c> to take mail from the internet (the bounce domain's MX).</summary>
    [Required]
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>The SMTP port: 25 behind the MX (or a port mapped to it); 0 picks a free one (tests).</summary>
    [Range(0, 65535)]
    public int Port { get; set; } = 2525;

    /// <summary>The name in the greeting and EHLO reply (the MX host's name).</summary>
    public string ServerName { get; set; } = "localhost";

    /// <summary>The largest message taken (advertised as SIZE, RFC 1870); a larger one is refused with 552. DSNs and ARF reports are small.</summary>
    [Range(16 * 1024, 64 * 1024 * 1024)]
    public int MaxMessageBytes { get; set; } = 1024 * 1024;

    /// <summary>A PEM certificate file (the chain after the leaf): offer STARTTLS with it. Unset: no STARTTLS.</summary>
    public string? Certificate { get; set; }

    /// <summary>The PEM private key of <see cref="Certificate"/>.</summary>
    public string? CertificateKey { get; set; }

    /// <summary>How many deferred notifications to an address within <see cref="SoftBounceWindow"/> suppress it (<c>soft_bounce</c>).</summary>
    [Range(1, 1000)]
    public int SoftBounceLimit { get; set; } = 5;

    /// <summary>The window of <see cref="SoftBounceLimit"/>.</summary>
    [Range(typeof(TimeSpan), "01:00:00", "365.00:00:00")]
    public TimeSpan SoftBounceWindow { get; set; } = TimeSpan.FromDays(7);

    /// <summary>How long an SMTP session may sit idle between commands.</summary>
    [Range(typeof(TimeSpan), "00:00:05", "00:30:00")]
    public TimeSpan SessionTimeout { get; set; } = TimeSpan.FromMinutes(2);

    /// <summary>Whether STARTTLS is offered.</summary>
    public bool StartTls => Certificate is { Length: > 0 };
}
