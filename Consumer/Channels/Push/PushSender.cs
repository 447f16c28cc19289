using System.Net.Http.Headers;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels.Http;
using Notifications.Consumer.RateLimiting;
using Polly.Timeout;

namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// Sends a push notification over its provider's shared HTTP/2 client; thread-safe, so one serves every handler. Its turn
/// spends a slot of the provider host's fleet rate limit, when it has one. A 2xx is delivered; any other answer or a request
/// cut off throws <see cref="PushSendException"/> (<see cref="PushFailures"/>). A 429 or 503 pauses this process's requests to
/// that provider for its Retry-After (its notifications are parked meanwhile, <see cref="ProviderPause"/>) and, when the
/// provider's host has a fleet rate limit, slows the fleet down (then the breaker leaves it to the limiter).
/// </summary>
internal sealed class PushSender(
    PushProviders providers, FleetRateLimiter limiter, RateLimitSettings limits, IOptions<PushOptions> options, TimeProvider time,
    ILogger<PushSender> logger) : IChannelSender
{
    private static readonly MediaTypeHeaderValue Json = new("application/json");

    public Task WaitTurnAsync(Outgoing outgoing, CancellationToken cancellationToken)
    {
        string host = providers.For(((PushNotification)outgoing).Provider).Link.Host;
        return limits.Domains.TryGetValue(host, out var rate)
            ? limiter.SpendAsync(RateLimitSettings.DomainKey(host), rate, cancellationToken)
            : Task.CompletedTask;
    }

    public async Task SendAsync(Outgoing outgoing, CancellationToken cancellationToken)
    {
        var push = (PushNotification)outgoing;
        var provider = providers.For(push.Provider);
        using var content = new TrackedContent(push.Body, Json);
        using var request = await CreateRequestAsync(provider, push, content, cancellationToken);
        using var response = await SendAsync(provider, request, content, cancellationToken);
        if (response.IsSuccessStatusCode)
        {
            return;
        }

        string body = await response.Content.ReadAsStringAsync(cancellationToken);
        int status = (int)response.StatusCode;
        string? reason = provider.ReasonOf(body);
        var failure = PushFailures.Classify(provider.Name, status, reason, provider.IsGone(status, reason), content.Written);
        if (status is 401 or 403)
        {
            provider.CredentialsRefused(request, reason);
        }

        if (failure.Gone)
        {
            PushSendingLog.TokenGone(logger, provider.Name, push.NotificationId, status, reason);
        }

        throw failure.SlowDown ? await SlowDownAsync(provider, response, failure, cancellationToken) : failure;
    }

    // Shared by every handler: nothing of its own to close.
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    private async Task<HttpRequestMessage> CreateRequestAsync(
        IPushProvider provider, PushNotification push, TrackedContent content, CancellationToken cancellationToken)
    {
        try
        {
            return await provider.CreateRequestAsync(push, content, cancellationToken);
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            // The token endpoint refused the assertion or could not be reached: our credentials, not the message.
            PushSendingLog.AccessTokenFailed(logger, ex);
            throw new PushSendException(SendFailureKind.Transient, provider.Name, null, null,
                $"{provider.Name} credentials: could not get an access token: {ex.Message}", ex);
        }
    }

    private static async Task<HttpResponseMessage> SendAsync(
        IPushProvider provider, HttpRequestMessage request, TrackedContent content, CancellationToken cancellationToken)
    {
        try
        {
            return await provider.Link.Client.SendAsync(request, cancellationToken);
        }
        catch (TimeoutRejectedException ex)
        {
            throw PushFailures.CutOff(provider.Name, content.Written, "did not answer in time", ex);
        }
        catch (HttpRequestException ex)
        {
            throw PushFailures.CutOff(provider.Name, content.Written, "connection failed", ex);
        }
        catch (OperationCanceledException ex) when (cancellationToken.IsCancellationRequested && content.Written)
        {
            // Cancelled (shutdown) after the body was handed over: maybe delivered. Before it, the cancellation stands.
            throw PushFailures.CutOff(provider.Name, bodyWritten: true, "was cancelled", ex);
        }
    }

    private async Task<PushSendException> SlowDownAsync(
        IPushProvider provider, HttpResponseMessage response, PushSendException failure, CancellationToken cancellationToken)
    {
        var now = time.GetUtcNow();
        var wait = RetryAfterHeader.Delay(response.Headers.RetryAfter, now, options.Value.MaxRetryAfter) ?? TimeSpan.Zero;
        provider.Link.Pause.Extend(now + wait);
        PushSendingLog.SlowDown(logger, provider.Name, failure.Status ?? 0, wait);
        if (!limits.Domains.ContainsKey(provider.Link.Host))
        {
            return failure;
        }

        string key = RateLimitSettings.DomainKey(provider.Link.Host);
        await limiter.SlowDownAsync(key, failure.Message, cancellationToken);
        return new PushSendException(failure.Kind, failure.Provider, failure.Status, failure.Reason, failure.Message)
        {
            SlowDown = true,
            HandledByRateLimiter = true,
        };
    }
}
