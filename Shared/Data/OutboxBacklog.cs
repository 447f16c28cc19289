namespace Notifications.Shared.Data;

/// <summary>
/// Rows waiting in the outbox per priority, each counted up to <see cref="Cap"/>: a backlog of millions is reported as
/// "at least the cap" instead of a count(*) that reads them all every time an operator (or the console, once a second) looks.
/// </summary>
/// <param name="Urgent">Rows with priority urgent (the urgent lane), up to the cap.</param>
/// <param name="Normal">Rows with priority normal (the standard lane), up to the cap.</param>
/// <param name="Bulk">Rows with priority bulk (the standard lane, after normal), up to the cap.</param>
/// <param name="Cap">The most rows counted per priority.</param>
public sealed record OutboxBacklog(long Urgent, long Normal, long Bulk, long Cap)
{
    /// <summary>The cap the status command and the console use: a count that stops reading there.</summary>
    public const long DefaultCap = 1_000_000;

    /// <summary>Every row counted, urgent + normal + bulk.</summary>
    public long Total => Urgent + Normal + Bulk;

    /// <summary>Whether any priority reached the cap (the true backlog is larger than <see cref="Total"/>).</summary>
    public bool Capped => Urgent >= Cap || Normal >= Cap || Bulk >= Cap;
}
