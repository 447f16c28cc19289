namespace Notifications.Shared.Data.FanOut;

/// <summary>
/// An audience row's fan-out (the table <c>fanout_job</c>; docs/fan-out.md): the row as claimed (<see cref="Parent"/>, what
/// every delivery copies), whom it is for and on which channels.
/// </summary>
/// <param name="Id">The audience row's notification id (the parent's).</param>
/// <param name="Audience">Its recipient: <c>subscriber:&lt;id&gt;</c> or <c>topic:&lt;name&gt;</c>.</param>
/// <param name="Channels">Its channels: <c>email</c>, <c>push</c> or <c>email,push</c>.</param>
/// <param name="Category">Its category (the subscribers' preferences), or null.</param>
/// <param name="Parent">The row as the producer claimed it.</param>
public sealed record FanOutJob(long Id, string Audience, string Channels, string? Category, OutboxRow Parent)
{
    /// <summary>The job of an audience row the claim took (its <c>channel</c> is <c>audience</c>).</summary>
    public static FanOutJob Of(OutboxRow row) =>
        new(row.Id, row.Recipient ?? "", row.Channels ?? "", row.Category, row);
}
