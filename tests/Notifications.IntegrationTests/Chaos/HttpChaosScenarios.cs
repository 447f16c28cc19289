using System.Diagnostics;
using System.Text.RegularExpressions;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;
using static Notifications.IntegrationTests.Chaos.ChaosRun;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The fault matrix's rows for the HTTP channels (issue 18). 27-29: webhook rows to one endpoint whose URL is the run's
/// Standard Webhooks receiver (<see cref="WebhookEnd"/>), counted there. 27: the receiver down (5 minutes; <see cref="ShortOutage"/>
/// in a short variant); 28: the receiver slower than the consumer's timeout; 29: a consumer SIGKILLed in the middle of an
/// envelope of webhooks (23's points). 30: push rows to FCM and APNs (<see cref="PushEnd"/>), our credentials refused for a
/// while. None may dead-letter anything. All four run on quorum queues, as the stacks deploy them (issue 27: a requeue counts
/// toward a quorum queue's delivery limit), with the product's delivery limit; NOTIFICATIONS_CHAOS_QUEUES=classic runs them on
/// classic queues. 27 and 30 also check that the consumer idles while it waits the outage out (a requeue loop spins a core).
/// </summary>
internal static partial class HttpChaosScenarios
{
    /// <summary>The consumer's webhook timeout in 28, and how late the slow receiver answers.</summary>
    private static readonly TimeSpan ConsumerTimeout = TimeSpan.FromSeconds(2), LateBy = TimeSpan.FromSeconds(4);

    /// <summary>
    /// 27's outage in a short variant: longer than the run's retry delays together (15 s), so that only parking, which spends
    /// no attempt, keeps the endpoint's notifications from being dead-lettered; and several of the breaker's breaks
    /// (<see cref="Break"/>), so that probes fail on the way.
    /// </summary>
    public static readonly TimeSpan ShortOutage = TimeSpan.FromSeconds(20);

    /// <summary>
    /// The destination breakers' break in 27, 28 and 30 (<c>Relay:BreakDuration</c>, 15 s in the product): shorter than the
    /// faults, so each fails probes and parks what it turns away again, and the breaker closes within 5 s of the fault's
    /// end instead of up to 15 (the rows take part in the test command's outage phase).
    /// </summary>
    private static readonly TimeSpan Break = TimeSpan.FromSeconds(5);

    private static (string Key, string Value) BreakSetting => ("Relay:BreakDuration", Break.ToString("c", System.Globalization.CultureInfo.InvariantCulture));

    // From the fault's start until the consumer is measured: its breakers open and the notifications it holds are parked.
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(5);

    // A consumer whose notifications are parked is all but idle (heartbeats, refresh loops, a park now and then); one
    // spinning on requeues takes a core. Measured without the runtime's compiling of code first run (WorkCpuSeconds).
    private const double IdleCores = 0.15;

    /// <summary>Those that must dead-letter nothing: all.</summary>
    public static readonly IReadOnlySet<int> NoDeadLetters = new HashSet<int> { 27, 28, 29, 30 };

    /// <summary>Whether <paramref name="scenario"/> runs on quorum queues: the HTTP channels' rows, unless NOTIFICATIONS_CHAOS_QUEUES=classic.</summary>
    public static bool OnQuorum(int scenario) => NoDeadLetters.Contains(scenario)
        && !string.Equals(Environment.GetEnvironmentVariable("NOTIFICATIONS_CHAOS_QUEUES"), "classic", StringComparison.OrdinalIgnoreCase);

    public static readonly IReadOnlyDictionary<int, (string Name, Func<ChaosRun, Task> Run)> All = new Dictionary<int, (string, Func<ChaosRun, Task>)>
    {
        [27] = ("webhook receiver down for 5 minutes", ReceiverDownAsync),
        [28] = ("webhook receiver slower than the consumer's timeout", ReceiverSlowAsync),
        [29] = ("consumer SIGKILLed mid-envelope of webhooks", ChaosScenarios.KillMidEnvelopeAsync),
        [30] = ("push credentials refused for 20 s (token revoked)", CredentialsRefusedAsync),
    };

    /// <summary>The channel of <paramref name="scenario"/>'s rows (<see cref="NotificationChannels"/>): email but for these.</summary>
    public static string ChannelOf(int scenario) => scenario switch
    {
        27 or 28 or 29 => NotificationChannels.Webhook,
        30 => NotificationChannels.Push,
        _ => NotificationChannels.Email,
    };

    // 20 times the 15 s the retry delays add up to (in the short variant, a few seconds more than them): only the endpoint's
    // breaker, which parks its messages in the delay queues without spending an attempt, keeps them from being dead-lettered.
    private static async Task ReceiverDownAsync(ChaosRun run)
    {
        var outage = run.Count < DefaultCount ? ShortOutage : TimeSpan.FromMinutes(5);
        var consumer = run.StartConsumer(BreakSetting);
        run.StartProducer();
        await run.WaitReceivedAsync(0.3);
        run.RelayCut("receiver stopped");
        await run.Receiver.StopAsync();
        string idle = await WaitOutAsync(run, consumer, outage);
        await run.Receiver.StartAgainAsync();
        run.Notes.Add($"receiver down {outage.TotalSeconds:F0} s; {idle}; {await BreakersClosedAsync(consumer)}");
    }

    // The receiver takes every request and answers 200 only after the consumer gave up on it: the consumer cannot know
    // whether it was delivered. At least once it sends it again (a duplicate at the receiver, at most one per late answer);
    // at most once it must not. Either way it is never lost, and a timeout is never a reason to dead-letter.
    private static async Task ReceiverSlowAsync(ChaosRun run)
    {
        var receiver = run.Webhooks ?? throw new InvalidOperationException("scenario 28 needs webhook rows");
        var consumer = run.StartConsumer(("Webhooks:Timeout", ConsumerTimeout.ToString("c", System.Globalization.CultureInfo.InvariantCulture)), BreakSetting);
        run.StartProducer();
        await run.WaitReceivedAsync(0.3);
        var slowFor = TimeSpan.FromSeconds(12);
        var slowSince = DateTime.UtcNow;
        receiver.Slow(LateBy);
        await Task.Delay(slowFor);
        receiver.Normal();
        string breakers = await BreakersClosedAsync(consumer);
        int late = receiver.LateAnswers;
        run.OutcomesUnknown(late, $"{late} answered {LateBy.TotalSeconds:F0} s late", slowSince);
        run.Notes.Add($"receiver answered {LateBy.TotalSeconds:F0} s late (consumer timeout {ConsumerTimeout.TotalSeconds:F0} s) for {slowFor.TotalSeconds:F0} s: {late} requests; {breakers}");
        if (late == 0)
        {
            run.Violations.Add("no request reached the receiver while it was slow: the fault was not injected");
        }
    }

    // Both providers refuse our credentials (FCM 401, APNs 403) for longer than the retry delays add up to: an auth failure
    // is the sender's, not the message's — transient, counted by each provider's breaker, which parks the messages unspent
    // — so nothing is dead-lettered or lost, and, as no send is cut, nothing is sent twice either.
    private static async Task CredentialsRefusedAsync(ChaosRun run)
    {
        var server = run.Push ?? throw new InvalidOperationException("scenario 30 needs push rows");
        var consumer = run.StartConsumer(BreakSetting);
        run.StartProducer();
        await run.WaitReceivedAsync(0.3);
        var refusedFor = TimeSpan.FromSeconds(20);
        server.Revoke();
        string idle = await WaitOutAsync(run, consumer, refusedFor);
        server.Restore();
        run.Notes.Add($"credentials refused {refusedFor.TotalSeconds:F0} s: {server.Refused} requests answered 401/403; {idle}; {await BreakersClosedAsync(consumer)}");
        if (server.Refused == 0)
        {
            run.Violations.Add("no request reached the push server while it refused our credentials: the fault was not injected");
        }
    }

    // Lets an outage of `outage` (from now) pass, measuring the consumer's CPU from Settle into it to its end: parked means idle.
    private static async Task<string> WaitOutAsync(ChaosRun run, Shutdown.WorkerProcess consumer, TimeSpan outage)
    {
        var since = Stopwatch.StartNew();
        await Task.Delay(Settle);
        double before = consumer.WorkCpuSeconds();
        var measured = Stopwatch.StartNew();
        await Task.Delay(outage - since.Elapsed is { Ticks: > 0 } rest ? rest : TimeSpan.Zero);
        double cores = (consumer.WorkCpuSeconds() - before) / measured.Elapsed.TotalSeconds;
        if (cores > IdleCores)
        {
            run.Violations.Add($"the consumer used {cores:F2} cores while waiting the outage out (at most {IdleCores}: its notifications are parked)");
        }

        return $"consumer {cores:F3} cores while waiting ({measured.Elapsed.TotalSeconds:F0} s)";
    }

    // The fault is over once every breaker it opened has closed again, by its own probe (the consumer's account: a destination
    // breaker's log lines, "Circuit breaker "webhook:chaos" opened/closed after"). Until then an open breaker keeps what it
    // turns away for its BreakDuration (15 s in the product), which can be longer than the 10 s without movement after which the
    // drain ends a run: a 3,000-row run, all of it within one prefetch window, was stopped there with 37 envelopes in hand (28 at
    // most once).
    private static async Task<string> BreakersClosedAsync(Shutdown.WorkerProcess consumer)
    {
        string output = await Eventually.WaitAsync(() => Task.FromResult(consumer.Output),
            o => Opened().Count(o) <= Closed().Count(o), TimeSpan.FromMinutes(2), "breakers closed again");
        int opened = Opened().Count(output);
        string lastOpenFor = Closed().Matches(output).LastOrDefault()?.Groups[1].Value ?? "";
        return opened == 0 ? "no breaker opened" : $"breakers opened {opened}x, closed again (the last open for {lastOpenFor[..Math.Min(lastOpenFor.Length, 11)]})";
    }

    [GeneratedRegex(@"Circuit breaker (?:""?[^""\s]+""? )?opened")]
    private static partial Regex Opened();

    [GeneratedRegex(@"Circuit breaker (?:""?[^""\s]+""? )?closed after ""?([0-9:.]+)""?:")]
    private static partial Regex Closed();
}
