using Notifications.Shared.Contract;

namespace Notifications.Shared.Data;

/// <summary>
/// One row of the <c>webhook_endpoint</c> table (db/*/018_webhook_endpoints.sql). <see cref="ToString"/> leaves the secrets out
/// (the URL's path and query too): an endpoint may be logged, its secrets never.
/// </summary>
public sealed class WebhookEndpoint
{
    /// <summary>The name webhook rows carry as their recipient.</summary>
    public required string Name { get; init; }

    /// <summary>Where the POST goes: absolute https (http only for a loopback endpoint with <see cref="AllowPrivate"/>).</summary>
    public required string Url { get; init; }

    /// <summary>The signing secret, <c>whsec_</c> + base64 key.</summary>
    public required string Secret { get; init; }

    /// <summary>The secret before the last rotation, which signs too until <see cref="PreviousSecretUntil"/>.</summary>
    public string? PreviousSecret { get; init; }

    /// <summary>When the previous secret stops signing.</summary>
    public DateTimeOffset? PreviousSecretUntil { get; init; }

    /// <summary>The admin allowed a loopback, link-local or private address for this endpoint.</summary>
    public bool AllowPrivate { get; init; }

    /// <summary>When it was disabled (by an operator, or by a 410 Gone), or null while it takes deliveries.</summary>
    public DateTimeOffset? DisabledAt { get; init; }

    /// <summary>Why it was disabled.</summary>
    public string? DisabledReason { get; init; }

    /// <summary>When it was added.</summary>
    public DateTimeOffset CreatedAt { get; init; }

    /// <summary>When the row last changed (the consumers' refresh watermark).</summary>
    public DateTimeOffset ChangedAt { get; init; }

    /// <summary>The secrets that sign at <paramref name="now"/>: the current one, and the previous one during its overlap.</summary>
    public IReadOnlyList<string> SigningSecrets(DateTimeOffset now) =>
        PreviousSecret is { } previous && PreviousSecretUntil is { } until && now < until ? [Secret, previous] : [Secret];

    /// <summary>The name and where the URL points (scheme, host, port), never a secret: the URL's path and query may hold one.</summary>
    public override string ToString()
    {
        string where = Uri.TryCreate(Url, UriKind.Absolute, out var url) ? WebhookUrlRedaction.Redact(url) : "an invalid URL";
        return DisabledAt is null ? $"{Name} ({where})" : $"{Name} ({where}, disabled)";
    }
}
