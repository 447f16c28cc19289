using System.ComponentModel.DataAnnotations;
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

    /// <summary>The longest Retry-After (of a 429 or 503) this process waits before its next request to that provider.</summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:05:00")]
    public TimeSpan MaxRetryAfter { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>
    /// A PEM file of the CA certificate (or self-signed server certificate) the push clients trust instead of the system's
    /// roots: for a provider reached through a TLS-inspecting proxy, or a test server. Unset: the system's trust store.
    /// </summary>
    public string? TrustedCertificateFile { get; set; }

    /// <inheritdoc />
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (!string.IsNullOrEmpty(TrustedCertificateFile) && PushCertificateTrust.TryLoad(TrustedCertificateFile, out string? error) is null)
        {
            yield return new ValidationResult($"Push:TrustedCertificateFile '{TrustedCertificateFile}' cannot be used: {error}",
                [nameof(TrustedCertificateFile)]);
        }

        foreach (var result in Fcm.Validate().Concat(Apns.Validate()))
        {
            yield return result;
        }
    }
}
