namespace Notifications.Harness.Live;

/// <summary>The medians of the runs' storms (null when no run had one), each figure on its own; how many runs kept the gateways up.</summary>
internal sealed record LiveStormMedians(double AllBackSeconds, double Retries, double NeverBack, double Lost, double Duplicates, double P99Ms, int UpRuns, int Runs)
{
    public static LiveStormMedians? Of(IReadOnlyList<LiveResult> runs)
    {
        var stormed = runs.Where(r => r.Storm is not null).ToList();
        return stormed.Count == 0
            ? null
            : new LiveStormMedians(
                LiveMedians.Median(stormed, r => r.Storm!.AllBackSeconds), LiveMedians.Median(stormed, r => r.Storm!.Retries),
                LiveMedians.Median(stormed, r => r.Storm!.NeverBack), LiveMedians.Median(stormed, r => r.Storm!.Lost),
                LiveMedians.Median(stormed, r => r.Duplicates), LiveMedians.Median(stormed, r => r.Storm!.P99Ms),
                stormed.Count(r => r.Storm!.Health.Up), stormed.Count);
    }
}
