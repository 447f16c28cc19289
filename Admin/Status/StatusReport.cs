using Notifications.Shared.Data;

namespace Notifications.Admin.Status;

/// <summary>
/// What <c>status</c> shows, gathered once (<see cref="StatusReader"/>) and rendered by the command line as text and by the
/// console as a page. A part that could not be reached is null, with the reason in <see cref="Errors"/>.
/// </summary>
internal sealed record StatusReport(
    DateTimeOffset At,
    OutboxBacklog? Backlog,
    DeliveryWindow? Deliveries,
    IReadOnlyList<RateLimitState>? RateLimits,
    IReadOnlyList<QueueDepth>? Queues,
    IReadOnlyList<AdminException> Errors)
{
    /// <summary>The exit code of the command: the last failure's, or success.</summary>
    public int ExitCode => Errors.Count == 0 ? ExitCodes.Success : Errors[^1].ExitCode;
}
