using System.Globalization;
using Notifications.Shared.Contract;

namespace Notifications.Harness.FanOut;

/// <summary>
/// The <c>fanout</c> mode's own options (scripts/bench --help, docs/benchmarks/README.md "Fan-out"): the registry seeded, and
/// whether one topic row is measured (the default) or a steady flow of rows to single subscribers (<c>--single</c>).
/// </summary>
internal sealed class FanOutBenchOptions
{
    /// <summary>The topic every seeded subscriber is in.</summary>
    public const string TopicName = "bench-fanout";

    /// <summary>Subscribers seeded; <c>--single</c>: the subscribers the rows go to in turn.</summary>
    public int Subscribers { get; private set; } = 100_000;

    /// <summary>Live contact points of the run's channel per subscriber.</summary>
    public int DevicesPerSubscriber { get; private set; } = 1;

    /// <summary><c>FanOut:PageSize</c> of the producers; the producer's default when not given.</summary>
    public int? PageSize { get; private set; }

    /// <summary>A steady <c>--rate</c> of rows, each to one subscriber, for <c>--duration</c>, instead of one topic row.</summary>
    public bool Single { get; private set; }

    /// <summary>How long a topic run waits for its last device after the insert before it counts the rest as lost.</summary>
    public TimeSpan Timeout { get; private set; } = TimeSpan.FromMinutes(10);

    /// <summary>The devices one notification goes to: every subscriber's for a topic, one subscriber's with <c>--single</c>.</summary>
    public long ExpectedPerNotification => Single ? DevicesPerSubscriber : (long)Subscribers * DevicesPerSubscriber;

    /// <summary>Takes <paramref name="key"/> if it is one of this mode's; false otherwise.</summary>
    public bool TrySet(string key, string value)
    {
        switch (key)
        {
            case "--subscribers": Subscribers = Count(key, value, 1, 10_000_000); break;
            case "--devices-per-subscriber": DevicesPerSubscriber = Count(key, value, 1, 100); break;
            case "--page-size": PageSize = Count(key, value, 1, 50_000); break;
            case "--timeout": Timeout = HarnessOptions.ParseDuration(value) is { TotalSeconds: > 0 } t ? t : throw new ArgumentException("--timeout must be positive"); break;
            default: return false;
        }

        return true;
    }

    /// <summary><c>--single</c>: one subscriber with three devices unless <c>--subscribers</c> / <c>--devices-per-subscriber</c> say otherwise.</summary>
    public void SetSingle(IReadOnlyList<string> args)
    {
        Single = true;
        if (!args.Contains("--subscribers"))
        {
            Subscribers = 1;
        }

        if (!args.Contains("--devices-per-subscriber"))
        {
            DevicesPerSubscriber = 3;
        }
    }

    /// <summary>The mode's rules on the shared options: push or email through the real receiver; <c>--single</c> push only.</summary>
    public void Check(HarnessOptions options)
    {
        if (options.Channel is not (NotificationChannels.Push or NotificationChannels.Email))
        {
            throw new ArgumentException("fanout: --channel push|email (an audience's contact points are devices and addresses)");
        }

        if (options.Channel == NotificationChannels.Email && options.Sender != "smtp")
        {
            throw new ArgumentException("fanout --channel email counts at smtp-sink: not with --sender simulated");
        }

        if (Single && options.Channel != NotificationChannels.Push)
        {
            throw new ArgumentException("fanout --single measures insert -> last device: --channel push (smtp-sink cannot tell which notification arrived)");
        }

        if (Single && options.Rate is < 1 or > 10_000)
        {
            throw new ArgumentException("fanout --single: --rate must be 1-10000 rows per second");
        }

        if ((long)Subscribers * DevicesPerSubscriber > 50_000_000)
        {
            throw new ArgumentException("fanout: --subscribers x --devices-per-subscriber must be at most 50,000,000");
        }
    }

    private static int Count(string key, string value, int min, int max) =>
        int.TryParse(value.Replace("_", "", StringComparison.Ordinal), NumberStyles.None, CultureInfo.InvariantCulture, out int n) && n >= min && n <= max
            ? n
            : throw new ArgumentException(string.Create(CultureInfo.InvariantCulture, $"{key} must be a whole number {min:N0}-{max:N0}"));
}
