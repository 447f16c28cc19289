using Notifications.Shared.Contract;

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
    /// <summary>Whether its push deliveries wait for the live one's ack (channels <c>live&gt;push</c>; docs/live.md).</summary>
    public bool PushWaitsForLive => AudienceAddress.PushWaitsForLive(Channels);

    /// <summary>
    /// Why an audience row cannot be fanned out, or null: what the outbox's checks refuse, should a row come without them
    /// (a database whose checks were dropped). The claim rejects such a row with this reason.
    /// </summary>
    public static string? Refusal(OutboxRow row) =>
        !AudienceAddress.TryParse(row.Recipient, out _, out _)
            ? $"invalid audience: '{row.Recipient}' is not subscriber:<id> or topic:<name>"
            : row.Channels is not { } channels || !AudienceAddress.ChannelSets.Contains(channels)
                ? $"invalid audience channels: '{row.Channels}' is not one of {string.Join(", ", AudienceAddress.ChannelSets)}"
                : row.TemplateName is not null && channels != NotificationChannels.Email
                    ? $"invalid audience channels: a template renders email only, not '{channels}'"
                    : null;

    /// <summary>Whether the audience is one subscriber (one page), not a topic.</summary>
    public bool IsSubscriber => AudienceAddress.TryParse(Audience, out bool isTopic, out _) && !isTopic;

    /// <summary>The job of an audience row the claim took (its <c>channel</c> is <c>audience</c>).</summary>
    public static FanOutJob Of(OutboxRow row) =>
        new(row.Id, row.Recipient ?? "", row.Channels ?? "", row.Category, row);
}
