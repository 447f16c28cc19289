using System.Globalization;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;
using Notifications.Shared.Data.Operations;

namespace Notifications.Admin.Operations;

/// <summary>Turns the rows kept of a notification into its steps, in the order they happen, saying which are not kept.</summary>
internal static class StorySteps
{
    /// <summary>What the schema does not keep (docs/console.md, "What a story cannot tell").</summary>
    public static readonly IReadOnlyList<string> NotKept =
    [
        "when the producer claimed and published one not sent (dead-lettered, suppressed, opted out) or sent before these times were kept: the claim deletes the outbox row, the message carries the times to the delivery log (a fan-out job's start is its claim)",
        "the failures of attempts made before failed attempts were kept: a dead letter keeps the last failure",
        "the trace id of one not sent, once claimed: it travels in the message's headers; the delivery log and each failed attempt keep it",
        "the recipient of a claimed email, webhook or push row (a fan-out delivery keeps its address; a dead letter its message)",
    ];

    public static NotificationStoryRecord Tell(NotificationStatus status, NotificationRecords records, LivePendingState? live, FanOutDeliveryReport deliveries)
    {
        var steps = new List<StoryStep>();
        if (records.Outbox is { } row)
        {
            steps.Add(new("inserted", Utc(row.CreatedAt), $"in the outbox, {row.Channel} to {row.Recipient}{(row.NotBefore is { } nb ? $", not before {Utc(nb):u}" : "")}"));
        }

        if (records.Rejected is { } rejected)
        {
            steps.Add(new("inserted", rejected.CreatedAt is { } c ? Utc(c) : null, $"for {rejected.Recipient ?? "-"}"));
            steps.Add(new("rejected", Utc(rejected.RejectedAt), $"refused by the producer, never published: {rejected.Reason}"));
        }

        if (records.FanOut is { } job)
        {
            steps.Add(new("claimed", Utc(job.CreatedAt), $"claimed by the producer; fanning out to {job.Audience}"));
            if (job.FinishedAt is { } finished)
            {
                steps.Add(new(job.State == "done" ? "fanned out" : job.State, Utc(finished), Invariant($"{job.Published} deliveries published")));
            }
        }
        else if (records.Delivery is { } delivery)
        {
            steps.Add(new("published", Utc(delivery.JobCreatedAt),
                Invariant($"a delivery of notification {delivery.ParentId} to subscriber {delivery.Subscriber ?? "(erased)"}, {delivery.Channel ?? "-"} {delivery.Address ?? ""}").TrimEnd()));
        }
        else if (records.Log is { ClaimedAt: not null } or { PublishedAt: not null })
        {
            steps.Add(new("claimed", Utc(records.Log.ClaimedAt), "claimed from the outbox by the producer"));
            steps.Add(new("published", Utc(records.Log.PublishedAt), "handed to the broker, confirmed"));
        }
        else if (records.Outbox is null && records.Rejected is null && !status.IsUnknown)
        {
            steps.Add(new("claimed and published", null, "claimed from the outbox and handed to the broker (when: not kept)"));
        }

        foreach (var attempt in records.Attempts)
        {
            steps.Add(new(Invariant($"attempt {attempt.Attempt} failed"), Utc(attempt.FailedAt), Invariant($"tried again: {attempt.Reason}")));
        }

        foreach (var dead in records.DeadLetters)
        {
            steps.Add(new("dead-lettered", Utc(dead.DeadLetteredAt), Invariant($"after {dead.Attempts} attempt(s): {dead.Reason} (group: {dead.ReasonClass})")));
        }

        if (records.Log is { } log)
        {
            if (log.Attempts is > 1 && records.Attempts.Count == 0)
            {
                steps.Add(new("attempts", null, Invariant($"{log.Attempts - 1} failed attempt(s) first (their failures are not kept)")));
            }

            steps.Add(new(Outcome(log.Status, log.Reason), Utc(log.UpdatedAt), Invariant($"{log.Status}{(log.Attempts is { } a ? $" on attempt {a}" : "")}{(log.Reason is { } r ? $": {r}" : "")}")));
        }

        foreach (var outcome in records.Outcomes)
        {
            steps.Add(new(outcome.Outcome, Utc(outcome.ReportedAt), Later(outcome, records.Log)));
        }

        string? traceId = records.Log?.TraceId ?? records.Attempts.LastOrDefault(a => a.TraceId is not null)?.TraceId
            ?? (records.Outbox?.TraceParent is { Length: 55 } traceparent ? traceparent[3..35] : null);
        string? recipient = records.Outbox?.Recipient ?? records.Rejected?.Recipient ?? records.Delivery?.Address ?? records.FanOut?.Audience;
        return new NotificationStoryRecord(status, steps, traceId, recipient, live, deliveries, NotKept);
    }

    // "bounced 2 min after it was accepted: 550 5.1.1 user unknown (to ana@example.com)"
    private static string Later(StoryOutcomeRow outcome, StoryLogRow? log)
    {
        string after = log is { Status: "sent" } ? Invariant($" {Math.Max(0, (outcome.ReportedAt - log.UpdatedAt).TotalMinutes):0} min after it was accepted") : "";
        string said = outcome.Diagnostic ?? outcome.Status ?? "";
        return Invariant($"{outcome.Outcome}{after}: {said} (to {outcome.Recipient}{(outcome.Diagnostic is not null && outcome.Status is { } s ? $", status {s}" : "")})");
    }

    private static string Outcome(string status, string? reason) => status switch
    {
        "sent" => "delivered",
        "sending" when reason is not null => "maybe sent",
        "sending" or "handing_back" => "in flight",
        _ => status.Replace('_', ' '),
    };

    private static DateTimeOffset Utc(DateTime value) => new(DateTime.SpecifyKind(value, DateTimeKind.Utc));

    private static DateTimeOffset? Utc(DateTime? value) => value is { } v ? Utc(v) : null;

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
