using System.ComponentModel.DataAnnotations;
using Notifications.Consumer.Channels.Http;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>The webhook channel (section <c>Webhooks</c>; env vars <c>Webhooks__Timeout</c> etc.; docs/webhooks.md).</summary>
internal sealed class WebhookOptions : IValidatableObject
{
    public const string SectionName = "Webhooks";

    /// <summary>
    /// One attempt's limit (connect, TLS, request, response headers). Cut off before the request was written: transient, sent
    /// again; after it: the outcome is unknown (the receiver may have it; at least once sends it again, at most once does not).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:10:00")]
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>How often each consumer reads the endpoints changed since its last look (the longest a disable or rotation goes unseen).</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "01:00:00")]
    public TimeSpan RefreshInterval { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>How far behind its newest <c>changed_at</c> each refresh reads again (a change whose transaction committed late).</summary>
    [Range(typeof(TimeSpan), "00:00:00", "01:00:00")]
    public TimeSpan RefreshOverlap { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The longest a 429 or 503's Retry-After pauses sends to its host (a longer one is cut to this): a paused host's
    /// notifications are parked in a delay queue until the pause's end, without spending an attempt or holding a handler.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:10:00")]
    public TimeSpan MaxRetryAfter { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>How long a pooled connection to an endpoint lives: a DNS change (and its address check) is seen within this.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    public TimeSpan ConnectionLifetime { get; set; } = TimeSpan.FromMinutes(5);

    /// <summary>
    /// A PEM file of root certificates endpoints' servers may chain to besides the system's (a private CA); null for the
    /// system's roots only. The host name must match either way. The same key and meaning as <c>Push:TrustedCertificatesFile</c>.
    /// </summary>
    public string? TrustedCertificatesFile { get; set; }

    /// <inheritdoc />
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (TrustedCertificates.Validate(TrustedCertificatesFile, "Webhooks:TrustedCertificatesFile", nameof(TrustedCertificatesFile)) is { } invalid)
        {
            yield return invalid;
        }
    }
}
