using System.Globalization;
using System.Text.RegularExpressions;
using Notifications.Consumer.Channels;
using Notifications.Consumer.Channels.Webhook;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.Shared.Contract;
using Polly.CircuitBreaker;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// The consumer's progress line tells an endpoint's (or a push provider's) open breaker apart from the SMTP relay's: sends
/// an endpoint's breaker turned away are not filed under the relay breaker, which stayed closed.
/// </summary>
[Collection("services")]
public sealed partial class WebhookBreakerProgressTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task EndpointBreakerOpen_ProgressLine_HoldBacksFiledUnderEndpointsNotTheRelay()
    {
        await using var scene = await WebhookScene.StartAsync();
        await scene.AddEndpointAsync("failing", scene.Receiver.PlainUrl!, allowPrivate: true);
        scene.Receiver.Script.Always(ScriptedAnswer.With(System.Net.HttpStatusCode.InternalServerError));
        await scene.InsertAsync("failing", 40);
        var logs = new RecordingLoggerProvider();

        await using (var consumer = await WorkerHost.StartConsumerAsync(scene.Broker, scene.Sink, logs.Install,
            ("Relay:BreakDuration", "00:02:00"), ("Metrics:ProgressInterval", "00:00:00.200")))
        await using (await WorkerHost.StartProducerAsync(scene.Broker))
        {
            var channel = consumer.Get<IEnumerable<IChannel>>().OfType<WebhookChannel>().Single();
            // Asked each time: before the endpoint cache's first load, the name maps to the unknown endpoints' breaker.
            var state = () => Task.FromResult(channel.BreakerFor(new NotificationMessage(0, "failing", "probe", null, false, DateTimeOffset.UtcNow, null)).State);
            await Eventually.WaitAsync(state, s => s == CircuitState.Open, Patience, "the endpoint's breaker open");
            // A line that counts the open breaker and what it holds back: on a loaded box the first lines after it opened
            // could still count 0 held back (the envelopes not yet back from the handlers); wait for the line, not for a count of lines.
            await Eventually.WaitAsync(() => Task.FromResult(Progress(logs.Lines).Count(HoldsBackUnderEndpoints)), n => n >= 1, Patience,
                "a progress line with the endpoint's breaker open and sends held back");
        }

        var lines = Progress(logs.Lines).ToList();
        Assert.All(lines, line => Assert.Contains("relay breaker closed (0 sends held back)", line, StringComparison.Ordinal));
        Assert.Contains(lines, HoldsBackUnderEndpoints);
    }

    private static bool HoldsBackUnderEndpoints(string line) => EndpointsHeldBack().Match(line) is { Success: true } m
        && long.Parse(m.Groups["open"].Value, CultureInfo.InvariantCulture) == 1 && long.Parse(m.Groups["held"].Value, CultureInfo.InvariantCulture) > 0;

    private static IEnumerable<string> Progress(IEnumerable<string> lines) => lines.Where(l => l.Contains("Consumer progress:", StringComparison.Ordinal));

    [GeneratedRegex(@"endpoint/provider breakers (?<open>\d+) open \((?<held>\d+) sends held back\)")]
    private static partial Regex EndpointsHeldBack();
}
