using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// Webhooks per Standard Webhooks: the row's recipient names a registered endpoint (<see cref="WebhookEndpoints"/>), its
/// subject is the event type, its data the payload's data. One breaker per endpoint (ungated: while it is open that
/// endpoint's messages are parked, the others go on), rate limits and Retry-After pauses per endpoint host (a paused host's
/// messages are parked too), one shared HTTP client per kind.
/// </summary>
internal sealed class WebhookChannel(
    WebhookEndpoints endpoints, WebhookSenderParts parts, IHttpClientFactory clients, IOptions<RelayOptions> relay,
    ConsumerMetrics metrics, ILogger<WebhookChannel> logger)
    : IChannel
{
    /// <summary>The client for endpoints whose host must resolve to public addresses only.</summary>
    public const string PublicClient = "webhooks";

    /// <summary>The client for endpoints the admin allowed private addresses (pooled apart: no connection is shared).</summary>
    public const string PrivateClient = "webhooks-private";

    private readonly ConcurrentDictionary<string, RelayBreaker> _breakers = new(StringComparer.Ordinal);
    private readonly RelayOptions _breakerOptions = BreakerOptions(relay.Value, parts.Options);
    private RelayBreaker? _unknown;

    public string Name => NotificationChannels.Webhook;

    /// <summary>The endpoint's breaker; a name no endpoint has shares one that never sees a send (its rows are refused).</summary>
    public RelayBreaker BreakerFor(NotificationMessage message) =>
        endpoints.Find(message.Recipient) is { } endpoint
            ? _breakers.GetOrAdd(endpoint.Name, name => NewBreaker("webhook:" + name))
            : _unknown ??= NewBreaker("webhook:(unknown endpoint)");

    /// <summary>Until when the endpoint's host asked (Retry-After) not to be sent anything; a name no endpoint has is never paused.</summary>
    public DateTimeOffset? PausedUntil(NotificationMessage message) => HostOf(message) is { } host ? parts.Pauses.PausedUntil(host) : null;

    /// <summary>The endpoint's host: its rate limits and Retry-After pauses are the host's, shared by the endpoints on it.</summary>
    public string? RateLimitDomain(NotificationMessage message) => HostOf(message);

    public async ValueTask<Prepared> PrepareAsync(NotificationMessage message, CancellationToken cancellationToken)
    {
        string name = message.Recipient!;
        if (await endpoints.FindAsync(name, cancellationToken) is not { } endpoint)
        {
            return Prepared.Refused($"unknown webhook endpoint '{name}': no such name is registered (scripts/admin webhooks list)");
        }

        if (endpoint.DisabledAt is { } since)
        {
            return Prepared.Refused($"webhook endpoint '{name}' is disabled since {since:O}: {endpoint.DisabledReason} (scripts/admin webhooks enable)");
        }

        if (WebhookUrlRules.Validate(endpoint.Url, endpoint.AllowPrivate, out var url) is { } invalid)
        {
            return Prepared.Refused($"webhook endpoint '{name}': {invalid}");
        }

        string body = WebhookPayload.Build(message.Subject!, message.CreatedAt, message.Data!);
        return Prepared.Ready(new WebhookRequest(message.Id, message.CreatedAt, endpoint, url!, body));
    }

    public GoneRecipient? GoneFor(Outgoing outgoing, SendFailedException failure) => null;

    public IChannelSender CreateSender() => new WebhookSender(parts, clients.CreateClient(PublicClient), clients.CreateClient(PrivateClient));

    // The relay's ratio and break; a send's limit is an attempt's timeout, which cuts it first, and a margin (reading the
    // answer's first bytes). No Retry-After pause and no rate-limit slot is waited for inside it.
    private static RelayOptions BreakerOptions(RelayOptions relay, WebhookOptions webhooks) => new()
    {
        FailureRatio = relay.FailureRatio,
        MinimumThroughput = relay.MinimumThroughput,
        SamplingDuration = relay.SamplingDuration,
        BreakDuration = relay.BreakDuration,
        SendTimeout = webhooks.Timeout + TimeSpan.FromSeconds(5),
    };

    private string? HostOf(NotificationMessage message) =>
        endpoints.Find(message.Recipient) is { } endpoint && Uri.TryCreate(endpoint.Url, UriKind.Absolute, out var url) ? url.IdnHost : null;

    private RelayBreaker NewBreaker(string name) => new(name, _breakerOptions, gated: false, metrics, parts.Time, logger);
}
