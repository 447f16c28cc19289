using System.ComponentModel.DataAnnotations;
using Notifications.Consumer.Channels.Http;
using Notifications.Consumer.Channels.Push.Apns;
using Notifications.Consumer.Channels.Push.Fcm;

namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// Mobile push (section <c>Push</c>; env vars <c>Push__Fcm__ProjectId</c> etc.): FCM HTTP v1 and APNs, each on when its key
/// file is set. A push row to a provider that is not configured is dead-lettered with why. docs/push.md has the setup.
/// </summary>
public sealed class PushOptions : IValidatableObject
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "Push";

    /// <summary>The deprecated name of <c>Push:TrustedCertificatesFile</c>.</summary>
    internal const string DeprecatedTrustKey = "Push:TrustedCertificateFile";

    /// <summary>Firebase Cloud Messaging (Android, iOS through Firebase, web).</summary>
    public FcmOptions Fcm { get; set; } = new();

    /// <summary>Apple Push Notification service, token-based (.p8) authentication.</summary>
    public ApnsOptions Apns { get; set; } = new();

    /// <summary>
    /// The longest one request may take (connect, TLS, request and answer); a request cut off after its body was written is
    /// "maybe delivered" (unknown), before it "not sent" (transient). Keep it under <c>Relay:SendTimeout</c>.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:05:00")]
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// The longest Retry-After (of a 429 or 503) this process pauses its requests to that provider for; the provider's notifications
    /// are parked in a delay queue meanwhile, without spending an attempt or holding a handler.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:05:00")]
    public TimeSpan MaxRetryAfter { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>
    /// A PEM file of root certificates the providers' servers may chain to besides the system's: a TLS-inspecting proxy's CA,
    /// a test server's certificate. Null: the system's roots only. The server name must match either way. The same key and
    /// meaning as <c>Webhooks:TrustedCertificatesFile</c>.
    /// </summary>
    public string? TrustedCertificatesFile { get; set; }

    /// <summary>
    /// Deprecated name of <see cref="TrustedCertificatesFile"/>, read when that is unset (a warning at start says so). It meant
    /// "these roots instead of the system's"; it now means what the new key means, roots besides the system's.
    /// </summary>
    public string? TrustedCertificateFile { get; set; }

    /// <summary>The trust file in force: <see cref="TrustedCertificatesFile"/>, else the deprecated <see cref="TrustedCertificateFile"/>.</summary>
    internal string? TrustFile => string.IsNullOrEmpty(TrustedCertificatesFile) ? TrustedCertificateFile : TrustedCertificatesFile;

    /// <summary>The key <see cref="TrustFile"/> came from, for messages.</summary>
    internal string TrustKey => string.IsNullOrEmpty(TrustedCertificatesFile) ? DeprecatedTrustKey : "Push:TrustedCertificatesFile";

    /// <inheritdoc />
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (TrustedCertificates.Validate(TrustFile, TrustKey, nameof(TrustedCertificatesFile)) is { } invalid)
        {
            yield return invalid;
        }

        foreach (var result in Fcm.Validate().Concat(Apns.Validate()))
        {
            yield return result;
        }
    }
}
