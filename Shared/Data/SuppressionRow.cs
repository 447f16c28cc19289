namespace Notifications.Shared.Data;

/// <summary>A <c>suppression</c> row as Dapper reads it in either dialect (timestamps as UTC DateTime or DateTimeOffset).</summary>
internal sealed class SuppressionRow
{
    public string Address { get; set; } = "";

    public string Reason { get; set; } = "";

    public string Scope { get; set; } = "";

    public DateTime Since { get; set; }

    public string? Detail { get; set; }

    public DateTime ChangedAt { get; set; }

    public DateTime? RemovedAt { get; set; }

    // The column holds 1,000 characters; an SMTP reply longer than that is cut, not refused.
    public static string? TruncateDetail(string? detail) => detail is { Length: > 1000 } ? detail[..1000] : detail;

    public SuppressionEntry ToEntry() => new(Address, Reason, Scope, Utc(Since), Detail, Utc(ChangedAt), RemovedAt is { } removed ? Utc(removed) : null);

    // Npgsql reads timestamptz as a UTC DateTime; SQL Server's datetimeoffset is read as UTC by the query (see the stores).
    private static DateTimeOffset Utc(DateTime value) => new(DateTime.SpecifyKind(value, DateTimeKind.Utc));
}
