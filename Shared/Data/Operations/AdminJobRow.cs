using System.Globalization;

namespace Notifications.Shared.Data.Operations;

/// <summary>An <c>admin_job</c> row as both dialects' stores read it (instants as UTC; the ids as comma-separated text).</summary>
internal sealed class AdminJobRow
{
    public long Id { get; init; }

    public string Kind { get; init; } = "";

    public string? ReasonClass { get; init; }

    public string? NotificationIds { get; init; }

    public string RequestedBy { get; init; } = "";

    public string State { get; init; } = "";

    public long? Total { get; init; }

    public long Done { get; init; }

    public long Failed { get; init; }

    public string? LeaseOwner { get; init; }

    public DateTime CreatedAt { get; init; }

    public DateTime? StartedAt { get; init; }

    public DateTime? FinishedAt { get; init; }

    public string? LastError { get; init; }

    /// <summary>A new job's parameters, the same in both dialects: the ids as text, who asked cut to the column.</summary>
    public static object Parameters(string kind, DeadLetterSelection selection, string requestedBy) => new
    {
        Kind = kind,
        Group = selection.ReasonClass,
        Ids = selection.NotificationIds is { } ids ? Join(ids) : null,
        RequestedBy = DeadLetterRecord.Cut(requestedBy, 200),
    };

    public static string Join(IReadOnlyList<long> ids) => string.Join(',', ids.Select(id => id.ToString(CultureInfo.InvariantCulture)));

    public AdminJob ToJob() => new(
        Id, Kind,
        ReasonClass is { } group
            ? DeadLetterSelection.Group(group)
            : DeadLetterSelection.Ids(NotificationIds!.Split(',', StringSplitOptions.RemoveEmptyEntries).Select(t => long.Parse(t, CultureInfo.InvariantCulture)).ToList()),
        RequestedBy, State, Total, Done, Failed, LeaseOwner, Utc(CreatedAt), StartedAt is { } s ? Utc(s) : null, FinishedAt is { } f ? Utc(f) : null, LastError);

    internal static DateTimeOffset Utc(DateTime value) => new(DateTime.SpecifyKind(value, DateTimeKind.Utc));
}
