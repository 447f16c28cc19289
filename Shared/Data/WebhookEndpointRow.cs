namespace Notifications.Shared.Data;

/// <summary>A <c>webhook_endpoint</c> row as Dapper reads it in either dialect (timestamps as UTC DateTime).</summary>
internal sealed class WebhookEndpointRow
{
    /// <summary>The columns under the names of this class, for PostgreSQL (SQL Server's store converts its datetimeoffsets).</summary>
    public const string PostgresColumns = """
        name AS Name, url AS Url, secret AS Secret, previous_secret AS PreviousSecret, previous_secret_until AS PreviousSecretUntil,
        allow_private AS AllowPrivate, disabled_at AS DisabledAt, disabled_reason AS DisabledReason, created_at AS CreatedAt, changed_at AS ChangedAt
        """;

    public string Name { get; set; } = "";

    public string Url { get; set; } = "";

    public string Secret { get; set; } = "";

    public string? PreviousSecret { get; set; }

    public DateTime? PreviousSecretUntil { get; set; }

    public bool AllowPrivate { get; set; }

    public DateTime? DisabledAt { get; set; }

    public string? DisabledReason { get; set; }

    public DateTime CreatedAt { get; set; }

    public DateTime ChangedAt { get; set; }

    // The column holds 1,000 characters; a receiver's answer longer than that is cut, not refused.
    public static string TruncateReason(string reason) => reason.Length > 1000 ? reason[..1000] : reason;

    public WebhookEndpoint ToEndpoint() => new()
    {
        Name = Name,
        Url = Url,
        Secret = Secret,
        PreviousSecret = PreviousSecret,
        PreviousSecretUntil = Utc(PreviousSecretUntil),
        AllowPrivate = AllowPrivate,
        DisabledAt = Utc(DisabledAt),
        DisabledReason = DisabledReason,
        CreatedAt = Utc(CreatedAt),
        ChangedAt = Utc(ChangedAt),
    };

    private static DateTimeOffset Utc(DateTime value) => new(DateTime.SpecifyKind(value, DateTimeKind.Utc));

    private static DateTimeOffset? Utc(DateTime? value) => value is { } v ? Utc(v) : null;
}
