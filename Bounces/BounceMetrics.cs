using System.Diagnostics.Metrics;

namespace Notifications.Bounces;

/// <summary>The bounce receiver's instruments (meter <c>Notifications.Bounces</c>), exported on its <c>/metrics</c>.</summary>
internal sealed class BounceMetrics
{
    public const string MeterName = "Notifications.Bounces";

    private readonly Counter<long> _messages;
    private readonly Counter<long> _outcomes;

    public BounceMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        _messages = meter.CreateCounter<long>("notifications.bounces.messages", "{message}",
            "Inbound messages by result: recorded, or why nothing changed (auto_reply, not_a_report, no_delivery_status, truncated, unreadable, no_failure, unknown_notification, no_such_notification, duplicate), refused_recipient, too_large, not_recorded");
        _outcomes = meter.CreateCounter<long>("notifications.bounces.outcomes", "{outcome}",
            "Outcomes recorded (bounced, complained, deferred), with the suppression reason they added (none when none)");
    }

    public void Message(string result) => _messages.Add(1, new KeyValuePair<string, object?>("result", result));

    public void Outcome(string outcome, string? suppressedAs) =>
        _outcomes.Add(1, new KeyValuePair<string, object?>("outcome", outcome), new KeyValuePair<string, object?>("suppressed_as", suppressedAs ?? "none"));
}
