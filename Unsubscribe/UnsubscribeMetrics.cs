using System.Diagnostics.Metrics;

namespace Notifications.Unsubscribe;

/// <summary>The unsubscribe process's instruments (meter <c>Notifications.Unsubscribe</c>), exported on its <c>/metrics</c>.</summary>
internal sealed class UnsubscribeMetrics
{
    public const string MeterName = "Notifications.Unsubscribe";

    private readonly Counter<long> _requests;

    public UnsubscribeMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        _requests = meter.CreateCounter<long>("notifications.unsubscribe.requests", "{request}",
            "Unsubscribe requests by outcome: shown (the page), unsubscribed, opted_out (of a category, by its subscribers), malformed, unknown_key, forged, expired, legacy, bad_request, not_recorded");
    }

    public void Count(string outcome) => _requests.Add(1, new KeyValuePair<string, object?>("outcome", outcome));
}
